import { expect, it } from 'vitest';
import { decodeWidgetToken } from '../../widget/host/plugboard-widget.ts';

/** The host script takes the widget token in every base64 form a backend may hand it on. */

const payload = {
  token: 'eyJhbGciOiJFUzI1NiJ9.eyJ3aWRnZXQiOnt9fQ.c2ln',
  widgetUrl: 'http://127.0.0.1:8080/embedded-widget?workspaceId=w&allowedOrigin=https%3A%2F%2Fapp.example',
};

it('decodes standard and URL-safe base64, padded or not', () => {
  // A payload whose base64 has both '+' or '/' and padding, so each form differs.
  const encodings = Array.from({ length: 64 }, (_, n) => Buffer.from(JSON.stringify({ ...payload, note: '?>~'.repeat(n) })).toString('base64'));
  const standard = encodings.find((encoded) => /[+/]/.test(encoded) && encoded.endsWith('='))!;
  const forms = [
    standard,
    standard.replace(/=+$/, ''),
    standard.replace(/\+/g, '-').replace(/\//g, '_'),
    standard.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  ];
  expect(new Set(forms).size).toBe(4);
  for (const form of forms) expect(decodeWidgetToken(form)).toEqual({ token: payload.token, widgetUrl: payload.widgetUrl });
});

it('refuses anything that is not a widget token, saying what it expected', () => {
  for (const bad of [
    '',
    'not base64!',
    Buffer.from('{"token": 1}').toString('base64'),
    Buffer.from('{"token": "t", "widgetUrl": "javascript:alert(1)"}').toString('base64'),
  ]) {
    expect(() => decodeWidgetToken(bad), bad).toThrow(/widget token from POST \/api\/v1\/embedded\/widget-token/);
  }
});
