/**
 * The Docker image answers name for a source or destination type this server runs: none runs in a
 * container, so the repository only names the type (`plugboard/source-slack`), the same wherever a
 * definition or its version is answered.
 */
export function definitionImage(actorType: 'source' | 'destination', type: string): string {
  return `plugboard/${actorType}-${type}`;
}
