import { useState } from 'preact/hooks';
import type { PublicStreamConfiguration, PublicStreamProperty } from '../core/hosted/types.generated.ts';
import { usePoll } from './poll.ts';
import { draftOf, type StreamDraft } from './stream-draft.ts';

/**
 * The streams a source offers (GET /v1/streams: the only ones a connection may name, with their own
 * sync modes and fields) and the user's choice among them, starting from `configured`. A choice made
 * for another source's streams is dropped once they change.
 */
export function useStreamChoice(sourceId: string | undefined, destinationId: string | undefined, configured?: PublicStreamConfiguration[]) {
  const query = sourceId ? `sourceId=${encodeURIComponent(sourceId)}${destinationId ? `&destinationId=${encodeURIComponent(destinationId)}` : ''}` : undefined;
  const found = usePoll<PublicStreamProperty[]>(query && `/v1/streams?${query}`);
  const [chosen, setChosen] = useState<{ basis: PublicStreamProperty[]; draft: StreamDraft }>();
  const properties = found.data;
  const draft = properties && (chosen?.basis === properties ? chosen.draft : draftOf(configured, properties));
  const setDraft = (next: StreamDraft) => properties && setChosen({ basis: properties, draft: next });
  return { properties, error: found.error, draft, setDraft };
}
