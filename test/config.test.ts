/** configFromEnv: the URL and list settings (the numeric ones are covered, as child processes, in startup.test.ts). */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/configuration-error.ts';
import { baseUrlVariable } from '../server/base-url-settings.ts';
import { configFromEnv } from '../server/config.ts';

describe('PLUGBOARD_PUBLIC_URL', () => {
  it.each([
    [{}, 'http://127.0.0.1:8080'],
    [{ HOST: '0.0.0.0', PORT: '9000' }, 'http://0.0.0.0:9000'],
    [{ HOST: '::' }, 'http://[::]:8080'],
    [{ HOST: '::1', PORT: '81' }, 'http://[::1]:81'],
    [{ PLUGBOARD_PUBLIC_URL: 'https://plugboard.example.com' }, 'https://plugboard.example.com'],
    [{ PLUGBOARD_PUBLIC_URL: 'https://plugboard.example.com/base//' }, 'https://plugboard.example.com/base'],
    [{ PLUGBOARD_PUBLIC_URL: 'HTTP://[::1]:8080/' }, 'HTTP://[::1]:8080'],
  ])('%o gives %s, a base new URL() accepts', (env, publicUrl) => {
    const config = configFromEnv(env);
    expect(config.publicUrl).toBe(publicUrl);
    expect(() => new URL('/embedded-widget', config.publicUrl)).not.toThrow();
  });

  it.each([
    ['plugboard.example.com', /^PLUGBOARD_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL, got "plugboard\.example\.com"$/],
    ['ftp://plugboard.example.com', /^PLUGBOARD_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL, got "ftp:/],
    ['http:plugboard.example.com', /^PLUGBOARD_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL/],
    ['http://', /^PLUGBOARD_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL/],
    ['https://plugboard.example.com/?a=1', /^PLUGBOARD_PUBLIC_URL must not have a query or fragment, got "https:\/\/plugboard\.example\.com\/\?a=1"$/],
    ['https://plugboard.example.com#top', /^PLUGBOARD_PUBLIC_URL must not have a query or fragment/],
    ['https://plugboard.example.com/?', /^PLUGBOARD_PUBLIC_URL must not have a query or fragment/],
    ['https://user:secret@plugboard.example.com', /^PLUGBOARD_PUBLIC_URL must not carry a user name or password$/],
    ['user:secret@plugboard.example.com', /^PLUGBOARD_PUBLIC_URL must be an absolute http:\/\/ or https:\/\/ URL$/],
  ])('%s is refused, naming the variable', (value, message) => {
    expect(() => configFromEnv({ PLUGBOARD_PUBLIC_URL: value })).toThrow(ConfigurationError);
    expect(() => configFromEnv({ PLUGBOARD_PUBLIC_URL: value })).toThrow(message);
  });

  it('a HOST the default cannot be built from is refused, pointing at PLUGBOARD_PUBLIC_URL', () => {
    expect(() => configFromEnv({ HOST: 'bad host' })).toThrow(ConfigurationError);
    expect(() => configFromEnv({ HOST: 'bad host' })).toThrow(
      /^PLUGBOARD_PUBLIC_URL is unset and its default built from HOST and PORT, "http:\/\/bad host:8080", is not a URL: set PLUGBOARD_PUBLIC_URL$/,
    );
  });
});

describe('PLUGBOARD_CONNECTORS', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['./plugins/acme/index.ts', ['./plugins/acme/index.ts']],
    [' @team/acme-connector , /opt/plugins/b.ts,', ['@team/acme-connector', '/opt/plugins/b.ts']],
  ])('%o lists %o', (value, connectors) => {
    expect(configFromEnv(value === undefined ? {} : { PLUGBOARD_CONNECTORS: value }).connectors).toEqual(connectors);
  });
});

describe('PLUGBOARD_<TYPE>_BASE_URL', () => {
  it.each([
    ['chat', 'PLUGBOARD_CHAT_BASE_URL'],
    ['file-storage', 'PLUGBOARD_FILE_STORAGE_BASE_URL'],
    ['issue-tracker', 'PLUGBOARD_ISSUE_TRACKER_BASE_URL'],
    ['crm_v2', 'PLUGBOARD_CRM_V2_BASE_URL'],
  ])('%s reads %s', (type, name) => {
    expect(baseUrlVariable(type)).toBe(name);
  });

  it('is asked for the loaded types only, each unset one undefined (the connector default)', () => {
    const baseUrls = configFromEnv({ PLUGBOARD_CHAT_BASE_URL: 'http://127.0.0.1:9100', PLUGBOARD_OTHER_BASE_URL: 'http://127.0.0.1:9200' }).baseUrls;
    expect(baseUrls(['chat', 'file-storage'])).toEqual({ chat: 'http://127.0.0.1:9100', 'file-storage': undefined });
  });

  it('refuses two types that would read one variable', () => {
    const baseUrls = configFromEnv({}).baseUrls;
    expect(() => baseUrls(['file-storage', 'file_storage'])).toThrow(ConfigurationError);
    expect(() => baseUrls(['file-storage', 'file_storage'])).toThrow(
      /^connector types "file-storage" and "file_storage" would share PLUGBOARD_FILE_STORAGE_BASE_URL: rename one of them$/,
    );
  });
});

describe.each([
  ['chat', 'PLUGBOARD_CHAT_BASE_URL'],
  ['file-storage', 'PLUGBOARD_FILE_STORAGE_BASE_URL'],
  ['issue-tracker', 'PLUGBOARD_ISSUE_TRACKER_BASE_URL'],
])('%s: %s', (type, name) => {
  const baseUrlOf = (value: string) => configFromEnv({ [name]: value }).baseUrls([type])[type];

  it.each([
    ['', undefined],
    ['http://127.0.0.1:9100', 'http://127.0.0.1:9100'],
    ['https://slack.com/api/', 'https://slack.com/api/'],
  ])('%o gives %o', (value, baseUrl) => {
    expect(baseUrlOf(value)).toBe(baseUrl);
  });

  it.each([
    ['127.0.0.1:9100', /must be an absolute http:\/\/ or https:\/\/ URL, got "127\.0\.0\.1:9100"$/],
    ['file:///etc/passwd', /must be an absolute http:\/\/ or https:\/\/ URL/],
    ['https://slack.com/api?x=1', /must not have a query or fragment/],
    ['https://bot:secret@slack.com/api', /must not carry a user name or password$/],
  ])('%s is refused, naming the variable', (value, message) => {
    expect(() => baseUrlOf(value)).toThrow(ConfigurationError);
    expect(() => baseUrlOf(value)).toThrow(new RegExp(`^${name} ${message.source}`));
  });
});
