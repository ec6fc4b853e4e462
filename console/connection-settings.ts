import { useState } from 'preact/hooks';
import type { PublicConnection, PublicConnectionSchedule, PublicStreamConfigurations } from '../core/hosted/types.generated.ts';
import { ApiError } from './api.ts';
import { useStreamChoice } from './stream-choice.ts';
import { streamsOf } from './stream-draft.ts';

export const STREAMS_LOC = ['body', 'configurations', 'streams'];
export const SCHEDULE_LOC = ['body', 'schedule'];

/**
 * A connection's streams and schedule as being edited (for a new connection: from nothing), and the
 * request body they make. Which stream each sent entry was is kept, so that the API's issues, which
 * point at entries by index, are said beside the stream they name.
 */
export function useConnectionSettings(sourceId: string | undefined, destinationId: string | undefined, current?: PublicConnection) {
  const choice = useStreamChoice(sourceId, destinationId, current?.configurations.streams);
  const [schedule, setSchedule] = useState<PublicConnectionSchedule>(current?.schedule ?? { scheduleType: 'manual' });
  const [sent, setSent] = useState<string[]>([]);
  const body = (): { configurations: PublicStreamConfigurations; schedule: PublicConnectionSchedule } => {
    if (!choice.properties || !choice.draft) throw new ApiError(0, "The source's streams are not read yet; wait a moment.");
    const streams = streamsOf(choice.draft, choice.properties, current?.configurations.streams);
    setSent(streams.map((stream) => stream.name));
    // An empty list would mean every stream to the API: not what unticking them all says.
    if (streams.length === 0) throw new ApiError(422, [{ loc: STREAMS_LOC, msg: 'Choose at least one stream to sync.', type: 'value_error.missing' }]);
    return { configurations: { streams }, schedule: schedule.scheduleType === 'cron' ? schedule : { scheduleType: 'manual' } };
  };
  return { choice, schedule, setSchedule, sent, body };
}

export type ConnectionSettings = ReturnType<typeof useConnectionSettings>;
