import { invalidField } from '../../errors.ts';
import type { ConfigWebBackendConnection, ConfigWebBackendConnectionUpdate, PublicConnectionSchedule } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';
import { checkSchedule, type ConnectionSchedule, isTimeZone } from './connection-schedule.ts';

type ConfigSchedule = Pick<ConfigWebBackendConnection, 'scheduleType' | 'scheduleData'>;

const NO_BASIC = 'basic schedules are not supported: give scheduleType cron with scheduleData.cron';

/** A stored schedule as the config API gives it: cron with its time zone apart (UTC when the expression names none). */
export function configScheduleOf(schedule: ConnectionSchedule): ConfigSchedule {
  if (schedule.scheduleType === 'manual' || schedule.cronExpression === undefined) return { scheduleType: 'manual' };
  const tokens = schedule.cronExpression.trim().split(/\s+/);
  const timeZone = tokens.length > 5 && isTimeZone(tokens.at(-1)!) ? tokens.pop()! : 'UTC';
  return { scheduleType: 'cron', scheduleData: { cron: { cronExpression: tokens.join(' '), cronTimeZone: timeZone } } };
}

/**
 * The schedule an update asks for, as the public API takes it (undefined: none given). The config
 * API's cron comes with its time zone apart; basic schedules (every N hours) are refused, as Plugboard
 * schedules by cron only. A 422 points into the body.
 */
export function scheduleOfUpdate(update: ConfigWebBackendConnectionUpdate, body: Loc): PublicConnectionSchedule | undefined {
  if (update.schedule !== undefined) throw invalidField([...body, 'schedule'], NO_BASIC, 'value_error.schedule_type');
  if (update.scheduleData?.basicSchedule !== undefined) throw invalidField([...body, 'scheduleData', 'basicSchedule'], NO_BASIC, 'value_error.schedule_type');
  switch (update.scheduleType) {
    case undefined:
      if (update.scheduleData !== undefined) throw invalidField([...body, 'scheduleType'], 'field required with scheduleData', 'value_error.missing');
      return undefined;
    case 'basic':
      throw invalidField([...body, 'scheduleType'], NO_BASIC, 'value_error.schedule_type');
    case 'manual':
      return { scheduleType: 'manual' };
    case 'cron': {
      const cron = update.scheduleData?.cron;
      const loc = [...body, 'scheduleData', 'cron'];
      if (!cron) throw invalidField(loc, 'field required for a cron schedule', 'value_error.missing');
      if (!isTimeZone(cron.cronTimeZone)) throw invalidField([...loc, 'cronTimeZone'], `unknown time zone "${cron.cronTimeZone}"`, 'value_error.cron');
      // Checked here too, so a bad expression is reported where the config API's body has it.
      return checkSchedule({ scheduleType: 'cron', cronExpression: `${cron.cronExpression} ${cron.cronTimeZone}` }, loc);
    }
  }
}
