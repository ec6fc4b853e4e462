import type { PublicSource } from '../types.generated.ts';
import type { ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import { epochSeconds, PublicActors } from './public-actors.ts';
import type { SourceKind } from './source-kinds.ts';

/** Sources: a configuration of any type SourceKinds knows, its credentials checked with the connector's check before it is stored. */
export class PublicSources extends PublicActors<SourceKind, PublicSource> {
  constructor(actors: ConfiguredActors<SourceKind>) {
    super(actors, 'check_connection_source');
  }

  protected toPublic(source: ConfiguredActor<SourceKind>): PublicSource {
    return {
      sourceId: source.id,
      name: source.name,
      sourceType: source.kind.name,
      definitionId: source.kind.definitionId,
      workspaceId: source.workspaceId,
      configuration: this.actors.masked(source),
      createdAt: epochSeconds(source.createdAt),
    };
  }
}
