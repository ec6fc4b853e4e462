import { invalidField, PlugboardError } from '../../errors.ts';
import type { SyncJobs } from '../sync/sync-jobs.ts';
import type { SavedState, SyncStates } from '../sync/sync-states.ts';
import type { SyncStreamSpec } from '../sync/sync-streams.ts';
import type { ConfigConnectionState, ConfigConnectionStateRequest, ConfigStreamState } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import type { PublicConnections } from './public-connections.ts';

const STATE_LOC: Loc = ['body', 'connectionState'];

/**
 * A connection's sync state through the config API: each stream's saved state (where its next
 * incremental read starts), read, or replaced as a whole while no job runs, since a running job
 * saves its own state as it goes and would overwrite or half-read the new one.
 */
export class ConnectionStates {
  constructor(
    private readonly connections: PublicConnections,
    private readonly states: SyncStates,
    private readonly jobs: SyncJobs,
  ) {}

  async get(organizationId: string, connectionId: string): Promise<ConfigConnectionState> {
    await this.connections.workspaceOf(organizationId, connectionId);
    const id = connectionId.toLowerCase();
    return stateAnswer(id, await this.states.all(id));
  }

  /**
   * Replaces the saved state: stateType `stream` with each stream's (an empty list clears it), or
   * `not_set` to clear it. A 423 while the connection has a job pending or running.
   */
  async replace(organizationId: string, input: ConfigConnectionStateRequest): Promise<ConfigConnectionState> {
    const id = input.connectionId.toLowerCase();
    const connection = await this.connections.get(organizationId, id);
    const available = await this.connections.sourceStreams(organizationId, id);
    const selected = (connection.configurations.streams ?? []).map((stream) => stream.name);
    const states = checkedStates(input.connectionState, id, selected, available);
    if (await this.jobs.live(id)) {
      throw new PlugboardError(423, `Connection ${id} has a job pending or running: its state can change once the job has ended`, 'connection_locked');
    }
    await this.states.replace(id, states);
    return stateAnswer(id, states);
  }
}

function stateAnswer(connectionId: string, states: Record<string, SavedState>): ConfigConnectionState {
  const streams = Object.entries(states);
  if (streams.length === 0) return { stateType: 'not_set', connectionId };
  return { stateType: 'stream', connectionId, streamState: streams.map(([name, state]) => ({ streamDescriptor: { name }, streamState: state })) };
}

/** The states to save, by stream; a 422 naming the first entry that is not one of the connection's streams, or not in its stream's form. */
function checkedStates(given: ConfigConnectionState, connectionId: string, selected: string[], available: SyncStreamSpec[]): Record<string, SavedState> {
  if (given.connectionId.toLowerCase() !== connectionId) {
    throw invalidField([...STATE_LOC, 'connectionId'], `must be the connection's id, ${connectionId}`, 'value_error.connection_mismatch');
  }
  if (given.stateType === 'not_set') return {};
  if (given.stateType !== 'stream') {
    throw invalidField(
      [...STATE_LOC, 'stateType'],
      `Plugboard keeps each stream's state: give stateType stream (or not_set to clear it), not ${given.stateType}`,
      'value_error.state_type',
    );
  }
  const states: Record<string, SavedState> = {};
  for (const [i, entry] of (given.streamState ?? []).entries()) {
    const at = [...STATE_LOC, 'streamState', i];
    const { name } = entry.streamDescriptor;
    if (!selected.includes(name)) {
      throw invalidField(
        [...at, 'streamDescriptor', 'name'],
        `"${name}" is not a stream of the connection; its streams: ${selected.join(', ')}`,
        'value_error.unknown_stream',
      );
    }
    if (name in states) throw invalidField([...at, 'streamDescriptor', 'name'], `stream "${name}" is listed twice`, 'value_error.duplicate_stream');
    if (entry.streamState === undefined) continue;
    checkForm(
      entry.streamState,
      available.find((stream) => stream.name === name),
      [...at, 'streamState'],
    );
    states[name] = entry.streamState;
  }
  return states;
}

/**
 * A cursor-based stream resumes from cursors, a change feed from a token, a full-refresh-only stream
 * from nothing; an Airbyte manifest's stream from its `stream_state`, in whatever form its cursor keeps.
 */
function checkForm(state: NonNullable<ConfigStreamState['streamState']>, stream: SyncStreamSpec | undefined, loc: Loc): void {
  // A stream its connector no longer offers: nothing says which form it had.
  if (!stream) return;
  if (!stream.supportedSyncModes.some((mode) => mode !== 'full_refresh_overwrite')) {
    throw invalidField(loc, `stream "${stream.name}" is read whole each time: it keeps no state`, 'value_error.stateless_stream');
  }
  if (stream.stateFormat === 'airbyte') return;
  const unknown = Object.keys(state).find((field) => field !== 'cursors' && field !== 'token');
  if (unknown !== undefined) {
    throw invalidField([...loc, unknown], `stream "${stream.name}" keeps its state as cursors or a token, not ${unknown}`, 'value_error.state_form');
  }
  const wrong = stream.cursorField === undefined ? 'cursors' : 'token';
  if (state[wrong] !== undefined) {
    const form = stream.cursorField === undefined ? 'a change feed: its state is a token' : `cursor-based (${stream.cursorField}): its state is its cursors`;
    throw invalidField([...loc, wrong], `stream "${stream.name}" is ${form}`, 'value_error.state_form');
  }
}
