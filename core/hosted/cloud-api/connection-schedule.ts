import { CronExpressionParser } from 'cron-parser';
import { invalidField } from '../../errors.ts';
import type { PublicConnectionSchedule, PublicConnectionScheduleResponse } from '../types.generated.ts';
import type { Loc } from './actor-kind.ts';

/** A schedule as stored: manual, or cron with the expression as given. */
export type ConnectionSchedule = PublicConnectionScheduleResponse;

interface ParsedCron {
  fields: string;
  timeZone: string;
}

/**
 * A valid schedule, or a 400 naming what is wrong. Cron expressions come as Airbyte's do (Quartz,
 * seconds first, `?` allowed, then optionally a time zone: `0 0 12 * * ? UTC`) or as 5-field cron;
 * a Quartz year field is taken only when it is `*`. A manual schedule keeps no expression.
 */
export function checkSchedule(schedule: PublicConnectionSchedule, loc: Loc): ConnectionSchedule {
  if (schedule.scheduleType === 'manual') return { scheduleType: 'manual' };
  if (schedule.cronExpression === undefined) throw invalidField([...loc, 'cronExpression'], 'field required for a cron schedule', 'value_error.missing');
  const parsed = parseCron(schedule.cronExpression, [...loc, 'cronExpression']);
  nextFire(parsed, Date.now(), [...loc, 'cronExpression']);
  return { scheduleType: 'cron', cronExpression: schedule.cronExpression };
}

/** When an active cron connection next syncs after `after` (epoch ms); none for a manual or inactive one. */
export function nextRunAt(schedule: ConnectionSchedule, status: 'active' | 'inactive', after: number): number | null {
  if (schedule.scheduleType !== 'cron' || status !== 'active') return null;
  const loc = ['cronExpression'];
  return nextFire(parseCron(schedule.cronExpression!, loc), after, loc);
}

function parseCron(expression: string, loc: Loc): ParsedCron {
  const tokens = expression.trim().split(/\s+/);
  const timeZone = tokens.length > 5 && isTimeZone(tokens.at(-1)!) ? tokens.pop()! : 'UTC';
  // Seven fields ending in a name: a time zone, misspelt (day and month names are never the seventh).
  if (tokens.length === 7 && /[A-Za-z]/.test(tokens[6]!)) throw invalidField(loc, `unknown time zone "${tokens[6]}"`, 'value_error.cron');
  if (tokens.length === 7) {
    if (tokens[6] !== '*' && tokens[6] !== '?') throw invalidField(loc, 'a Quartz year field is supported only as *', 'value_error.cron');
    tokens.pop();
  }
  if (tokens.length !== 5 && tokens.length !== 6) {
    throw invalidField(loc, 'a cron expression has 5 fields, or 6 with seconds first (then an optional time zone)', 'value_error.cron');
  }
  return { fields: tokens.join(' '), timeZone };
}

function nextFire(cron: ParsedCron, after: number, loc: Loc): number {
  try {
    return CronExpressionParser.parse(cron.fields, { tz: cron.timeZone, currentDate: new Date(after) })
      .next()
      .getTime();
  } catch (error) {
    throw invalidField(loc, `invalid cron expression: ${(error as Error).message}`, 'value_error.cron');
  }
}

export function isTimeZone(name: string): boolean {
  if (!/[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
