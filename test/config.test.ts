/** configFromEnv: the URL settings (the numeric ones are covered, as child processes, in startup.test.ts). */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../core/configuration-error.ts';
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
    expect(() => configFromEnv({ HOST: 'bad host' })).toThrow(/^PLUGBOARD_PUBLIC_URL is unset and its default built from HOST and PORT, "http:\/\/bad host:8080", is not a URL: set PLUGBOARD_PUBLIC_URL$/);
  });
});

describe.each(['PLUGBOARD_CHAT_BASE_URL', 'PLUGBOARD_FILE_STORAGE_BASE_URL'])('%s', (name) => {
  const type = name === 'PLUGBOARD_CHAT_BASE_URL' ? 'chat' : 'file-storage';

  it.each([
    ['', undefined],
    ['http://127.0.0.1:9100', 'http://127.0.0.1:9100'],
    ['https://slack.com/api/', 'https://slack.com/api/'],
  ])('%o gives %o', (value, baseUrl) => {
    expect(configFromEnv({ [name]: value }).baseUrls[type]).toBe(baseUrl);
  });

  it.each([
    ['127.0.0.1:9100', /must be an absolute http:\/\/ or https:\/\/ URL, got "127\.0\.0\.1:9100"$/],
    ['file:///etc/passwd', /must be an absolute http:\/\/ or https:\/\/ URL/],
    ['https://slack.com/api?x=1', /must not have a query or fragment/],
    ['https://bot:secret@slack.com/api', /must not carry a user name or password$/],
  ])('%s is refused, naming the variable', (value, message) => {
    expect(() => configFromEnv({ [name]: value })).toThrow(ConfigurationError);
    expect(() => configFromEnv({ [name]: value })).toThrow(new RegExp(`^${name} ${message.source}`));
  });
});
