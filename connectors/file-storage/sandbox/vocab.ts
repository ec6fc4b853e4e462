import type { Random } from './prng.ts';

/** Word lists for people, file names and document text. Plain ASCII keeps byte counts predictable. */

export const FIRST_NAMES = [
  'Amara',
  'Bruno',
  'Chiara',
  'Dmitri',
  'Elena',
  'Farid',
  'Greta',
  'Hiro',
  'Ines',
  'Jonas',
  'Kaveh',
  'Lena',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Samir',
  'Tove',
  'Umar',
  'Vera',
  'Wen',
  'Yusuf',
  'Zoe',
] as const;

export const LAST_NAMES = [
  'Abara',
  'Bianchi',
  'Castillo',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Gupta',
  'Haddad',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Larsen',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Quinn',
  'Rossi',
  'Silva',
  'Tanaka',
] as const;

export const TOPICS = [
  'Budget',
  'Roadmap',
  'Onboarding',
  'Retrospective',
  'Launch',
  'Hiring',
  'Security',
  'Pricing',
  'Research',
  'Migration',
  'Forecast',
  'Inventory',
  'Partnership',
  'Compliance',
  'Design',
  'Marketing',
  'Support',
  'Training',
  'Quarterly',
  'Incident',
  'Architecture',
  'Benchmark',
  'Customer',
  'Vendor',
  'Offsite',
] as const;

export const QUALIFIERS = [
  'plan',
  'notes',
  'review',
  'summary',
  'draft',
  'report',
  'overview',
  'checklist',
  'proposal',
  'minutes',
  'analysis',
  'guide',
  'tracker',
  'brief',
  'outline',
  'estimate',
  'results',
  'inventory',
  'timeline',
  'faq',
] as const;

export const WORDS = [
  'the',
  'team',
  'agreed',
  'to',
  'ship',
  'a',
  'first',
  'version',
  'of',
  'new',
  'dashboard',
  'before',
  'end',
  'quarter',
  'we',
  'will',
  'review',
  'metrics',
  'each',
  'week',
  'and',
  'adjust',
  'scope',
  'if',
  'needed',
  'customers',
  'asked',
  'for',
  'faster',
  'exports',
  'better',
  'search',
  'clearer',
  'pricing',
  'pages',
  'budget',
  'remains',
  'within',
  'plan',
  'hiring',
  'two',
  'engineers',
  'one',
  'designer',
  'is',
  'approved',
  'risks',
  'include',
  'vendor',
  'delays',
  'data',
  'migration',
  'issues',
  'unclear',
  'ownership',
  'next',
  'steps',
  'are',
  'listed',
  'below',
  'with',
  'owners',
  'dates',
  'please',
  'comment',
  'on',
  'open',
  'questions',
  'storage',
  'costs',
  'dropped',
  'after',
  'archive',
  'policy',
  'changed',
  'latency',
  'improved',
  'by',
  'half',
  'support',
  'tickets',
  'fell',
  'since',
  'launch',
  'documentation',
  'needs',
  'work',
  'in',
  'several',
  'areas',
] as const;

export const REGIONS = ['North', 'South', 'East', 'West', 'Central'] as const;
export const PRODUCTS = ['Atlas', 'Beacon', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Harbor'] as const;

export function sentence(rng: Random, minWords = 6, maxWords = 16): string {
  const n = rng.int(minWords, maxWords);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(rng.pick(WORDS));
  const text = words.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export function paragraph(rng: Random, minSentences = 2, maxSentences = 6): string {
  const n = rng.int(minSentences, maxSentences);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(rng));
  return out.join(' ');
}

/** Paragraphs separated by blank lines until at least `bytes` characters (ASCII), then cut there. */
export function textOfSize(rng: Random, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const p = paragraph(rng);
    parts.push(p);
    length += p.length + 2;
  }
  return parts.join('\n\n').slice(0, bytes);
}
