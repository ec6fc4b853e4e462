import type { PublicDestination } from '../types.generated.ts';
import type { ConfiguredActor, ConfiguredActors } from './configured-actors.ts';
import type { DestinationKind } from './destination-kinds.ts';
import { type ActorSurroundings, epochSeconds, PublicActors } from './public-actors.ts';

/** Destinations: sqlite, postgres or duckdb, each checked (connect, create, write, drop a table) before it is stored. */
export class PublicDestinations extends PublicActors<DestinationKind, PublicDestination> {
  constructor(actors: ConfiguredActors<DestinationKind>, around: ActorSurroundings) {
    super(actors, 'check_connection_destination', 'destination', around);
  }

  protected toPublic(destination: ConfiguredActor<DestinationKind>): PublicDestination {
    return {
      destinationId: destination.id,
      name: destination.name,
      destinationType: destination.kind.name,
      definitionId: destination.kind.definitionId,
      workspaceId: destination.workspaceId,
      configuration: this.actors.masked(destination),
      createdAt: epochSeconds(destination.createdAt),
    };
  }
}
