import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

/**
 * Custom keyword a schema may set beside `pattern` (or any keyword) to give callers a readable
 * message instead of the raw regex, e.g. "must be lowercase with no spaces".
 */
export const ERROR_MESSAGE_KEYWORD = 'x-error-message';

// ajv-formats is CommonJS; under NodeNext its default import is the plugin at run time but typed as the module.
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as unknown as (ajv: Ajv) => Ajv;

/**
 * One ajv instance per schema registry: strict (a misspelt keyword is a load error), all errors
 * reported. `lenient`: for schemas written elsewhere (an Airbyte manifest's spec and streams), whose
 * `pattern` beside no `type` is no mistake of ours to refuse; what they say is still checked.
 */
export function createAjv(options: { lenient?: boolean } = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: !options.lenient, allowUnionTypes: true, verbose: true, ...(options.lenient ? { logger: false } : {}) });
  addFormats(ajv);
  ajv.addVocabulary([ERROR_MESSAGE_KEYWORD]);
  return ajv;
}
