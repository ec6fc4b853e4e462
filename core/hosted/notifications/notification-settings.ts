/**
 * When a connection is warned about and disabled for failing (Airbyte's rule, docs/notifications.md):
 * both the count of consecutive failed jobs and the whole days without a success must reach the mark.
 */
export interface AutoDisableThresholds {
  failedJobs: number;
  days: number;
  warningFailedJobs: number;
  warningDays: number;
}

/** How notifications are delivered and when connections are disabled; tests shorten the times. */
export interface NotificationSettings {
  autoDisable: AutoDisableThresholds;
  /** Waits before each retry of a delivery; the first attempt is at once. Past the last, it is given up. */
  retryDelaysMs: number[];
  /** One attempt's limit, connecting and answering included. */
  timeoutMs: number;
  /** How often due deliveries and new events are looked for. */
  pollMs: number;
  /** The root of the links messages carry (`<root>/workspaces/<id>/connections/<id>`): Airbyte's webapp URL. */
  linkUrl?: string;
}

/** Airbyte's defaults (airbyte-server application.yml: MAX_FAILED_JOBS_IN_A_ROW_BEFORE_CONNECTION_DISABLE and the rest). */
export const DEFAULT_AUTO_DISABLE: AutoDisableThresholds = { failedJobs: 30, days: 7, warningFailedJobs: 20, warningDays: 4 };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Standard Webhooks' example schedule up to 14 h: eight attempts over about 31 hours, so a receiver down for a day still gets it. */
export const DEFAULT_RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 14 * HOUR];

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  autoDisable: DEFAULT_AUTO_DISABLE,
  retryDelaysMs: DEFAULT_RETRY_DELAYS_MS,
  // Standard Webhooks asks for 15 to 30 s.
  timeoutMs: 15 * SECOND,
  pollMs: SECOND,
};

/** Reads an integer setting by name, `fallback` when unset, at least `min` (the server's integerSetting). */
export type IntegerSetting = (name: string, fallback: number, min: number) => number;

/**
 * The settings from the environment: Airbyte's variable names with PLUGBOARD_ in front for the
 * thresholds, PLUGBOARD_WEBHOOK_TIMEOUT_SECONDS, and PLUGBOARD_WEBAPP_URL for the links.
 */
export function notificationSettingsFromEnv(integer: IntegerSetting, webappUrl: string | undefined): NotificationSettings {
  const d = DEFAULT_AUTO_DISABLE;
  return {
    ...DEFAULT_NOTIFICATION_SETTINGS,
    autoDisable: {
      failedJobs: integer('PLUGBOARD_MAX_FAILED_JOBS_IN_A_ROW_BEFORE_CONNECTION_DISABLE', d.failedJobs, 1),
      days: integer('PLUGBOARD_MAX_DAYS_OF_ONLY_FAILED_JOBS_BEFORE_CONNECTION_DISABLE', d.days, 0),
      warningFailedJobs: integer('PLUGBOARD_MAX_FAILED_JOBS_IN_A_ROW_BEFORE_CONNECTION_WARNING', d.warningFailedJobs, 1),
      warningDays: integer('PLUGBOARD_MAX_DAYS_OF_ONLY_FAILED_JOBS_BEFORE_CONNECTION_WARNING', d.warningDays, 0),
    },
    timeoutMs: integer('PLUGBOARD_WEBHOOK_TIMEOUT_SECONDS', DEFAULT_NOTIFICATION_SETTINGS.timeoutMs / SECOND, 1) * SECOND,
    ...(webappUrl ? { linkUrl: webappUrl } : {}),
  };
}
