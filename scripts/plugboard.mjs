#!/usr/bin/env node
// The `plugboard` command (package.json "bin"; `npx plugboard ...`). The CLI is TypeScript: tsx's loader
// is registered here, resolved from this file rather than the working directory, so it runs from anywhere.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('./plugboard.ts');
