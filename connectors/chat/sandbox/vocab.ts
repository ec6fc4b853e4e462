/** Word lists the seeded generator draws from. Changing them changes every seeded data set. */

export const FIRST_NAMES = [
  'Ada', 'Alan', 'Amara', 'Ana', 'Arjun', 'Beatriz', 'Ben', 'Carla', 'Chen', 'Chloe', 'Dara', 'David',
  'Elena', 'Emeka', 'Eva', 'Farah', 'Felix', 'Grace', 'Hana', 'Hugo', 'Ines', 'Ivan', 'Jana', 'Jonas',
  'Kai', 'Keiko', 'Lars', 'Leila', 'Liam', 'Lucia', 'Marco', 'Maya', 'Mei', 'Nadia', 'Noah', 'Olga',
  'Omar', 'Priya', 'Quinn', 'Rafael', 'Rosa', 'Sam', 'Sana', 'Sofia', 'Tariq', 'Tomas', 'Uma', 'Vera',
  'Wei', 'Yara', 'Yusuf', 'Zoe',
] as const;

export const LAST_NAMES = [
  'Abara', 'Bauer', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen',
  'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Santos',
  'Tanaka', 'Umarov', 'Varga', 'Weber', 'Xu', 'Yilmaz', 'Zhang', 'Silva', 'Novak', 'Kim', 'Patel',
  'Murphy', 'Schmidt', 'Hughes', 'Larsen', 'Romero', 'Becker', 'Mendes', 'Sato', 'Kaur', 'Dimitrov',
] as const;

export const TITLES = [
  'Software Engineer', 'Senior Software Engineer', 'Product Manager', 'Designer', 'Engineering Manager',
  'Support Specialist', 'Account Executive', 'Data Analyst', 'Site Reliability Engineer', 'Recruiter',
  'Marketing Lead', '', '', 'QA Engineer', 'Technical Writer', 'Finance Partner',
] as const;

/** [tz, tz_label, tz_offset seconds] as Slack reports them (labels are the standard-time names). */
export const TIME_ZONES: ReadonlyArray<readonly [string, string, number]> = [
  ['America/Los_Angeles', 'Pacific Standard Time', -28800],
  ['America/Denver', 'Mountain Standard Time', -25200],
  ['America/Chicago', 'Central Standard Time', -21600],
  ['America/New_York', 'Eastern Standard Time', -18000],
  ['America/Sao_Paulo', 'Brasilia Standard Time', -10800],
  ['Europe/London', 'Greenwich Mean Time', 0],
  ['Europe/Berlin', 'Central European Time', 3600],
  ['Europe/Athens', 'Eastern European Time', 7200],
  ['Asia/Kolkata', 'India Standard Time', 19800],
  ['Asia/Singapore', 'Singapore Standard Time', 28800],
  ['Asia/Tokyo', 'Japan Standard Time', 32400],
  ['Australia/Sydney', 'Australian Eastern Daylight Time', 39600],
];

export const USER_COLORS = [
  '9f69e7', '4bbe2e', 'e7392d', '3c989f', '674b1b', 'e96699', 'e0a729', 'df3dc0', '684b6c', '5b89d5',
  '2b6836', '99d04a', 'dd8527', '43761b', '235e5b', 'd58247', '902d59', '53b759', 'bb86b7', '8d4b84',
] as const;

export const STATUSES: ReadonlyArray<readonly [string, string]> = [
  ['', ''], ['', ''], ['', ''], ['', ''],
  ['In a meeting', ':spiral_calendar_pad:'],
  ['Commuting', ':bus:'],
  ['Out sick', ':face_with_thermometer:'],
  ['Vacationing', ':palm_tree:'],
  ['Working remotely', ':house_with_garden:'],
  ['Focus time', ':headphones:'],
];

/** Apps installed in the workspace besides the sandbox's own bot. */
export const APP_BOTS = ['github', 'jira', 'pagerduty', 'google_drive', 'zoom', 'polly', 'standup_bot', 'circleci'] as const;

export const CHANNEL_NAMES = [
  'engineering', 'design', 'marketing', 'sales', 'support', 'announcements', 'product', 'ops', 'finance',
  'people-team', 'devops', 'frontend', 'backend', 'qa', 'data-science', 'security', 'mobile', 'infra',
  'incidents', 'releases', 'standup', 'watercooler', 'help-desk', 'customer-success', 'legal', 'hiring',
  'docs', 'api_platform', 'billing', 'growth', 'research', 'onboarding', 'social', 'dev-null', 'alerts',
] as const;

export const PROJECT_WORDS = [
  'atlas', 'beacon', 'comet', 'delta', 'ember', 'falcon', 'glacier', 'harbor', 'iris', 'juniper',
  'kestrel', 'lumen', 'meridian', 'nova', 'orbit', 'pioneer', 'quartz', 'raven', 'sierra', 'tundra',
] as const;

export const TOPICS = [
  'Weekly sync on Tuesdays', 'Ask anything, no question too small', 'Current sprint: stabilise the API',
  'On-call rotation: see the pinned message', 'Release train leaves every Thursday',
  'Please use threads for long discussions', 'Status: all systems operational', 'Roadmap review next week',
] as const;

export const PURPOSES = [
  'Coordinate day-to-day work', 'Share updates and ask questions', 'Discuss incidents and follow-ups',
  'A place for non-work banter', 'Plan and track releases', 'Collaborate with the wider team',
  'Customer feedback and escalations', 'Design critiques and reviews',
] as const;

export const WORDS = [
  'deploy', 'review', 'the', 'build', 'pipeline', 'is', 'green', 'again', 'can', 'someone', 'look', 'at',
  'this', 'ticket', 'please', 'thanks', 'for', 'quick', 'fix', 'meeting', 'moved', 'to', 'tomorrow',
  'dashboard', 'latency', 'looks', 'higher', 'than', 'usual', 'I', 'think', 'we', 'should', 'roll',
  'back', 'migration', 'finished', 'customers', 'reported', 'an', 'issue', 'with', 'login', 'flow',
  'draft', 'ready', 'feedback', 'welcome', 'on', 'call', 'handoff', 'notes', 'shared', 'in', 'doc',
  'release', 'candidate', 'tagged', 'tests', 'flaky', 'again', 'need', 'help', 'debugging', 'cache',
  'invalidation', 'new', 'hire', 'starts', 'Monday', 'lunch', 'order', 'closing', 'soon', 'metrics',
  'updated', 'sprint', 'planning', 'backlog', 'groomed', 'prototype', 'demo', 'went', 'well', 'bug',
  'confirmed', 'fixed', 'merged', 'main', 'branch', 'config', 'change', 'needs', 'approval',
] as const;

/**
 * Emoji names reactions.add accepts (standard names only: the sandbox has no custom emoji). Slack
 * stores `thumbsup` as its alias `+1` and `thumbsdown` as `-1`.
 */
export const EMOJI_NAMES: ReadonlySet<string> = new Set([
  '+1', 'thumbsup', '-1', 'thumbsdown', 'heart', 'smile', 'smiley', 'grinning', 'laughing', 'joy', 'tada',
  'eyes', 'rocket', 'white_check_mark', 'heavy_check_mark', 'x', 'fire', '100', 'clap', 'pray',
  'raised_hands', 'wave', 'ok_hand', 'muscle', 'thinking_face', 'sweat_smile', 'sob', 'cry', 'star',
  'sparkles', 'bulb', 'warning', 'rotating_light', 'point_up', 'bug', 'coffee', 'beers', 'pizza',
  'slightly_smiling_face', 'wink', 'sunglasses', 'heart_eyes', 'hugging_face', 'confused', 'partying_face',
  'memo', 'question', 'exclamation', 'zap', 'trophy', 'ship', 'hourglass', 'link', 'lock',
]);

export const EMOJI_ALIASES: Readonly<Record<string, string>> = { thumbsup: '+1', thumbsdown: '-1' };

/** Reactions the seeded history uses (a subset of EMOJI_NAMES, canonical names). */
export const SEED_REACTIONS = ['+1', 'heart', 'tada', 'eyes', 'rocket', 'white_check_mark', 'joy', 'fire', '100', 'pray'] as const;
