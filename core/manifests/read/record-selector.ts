/**
 * The CDK's RecordSelector: the DpathExtractor takes the records out of each decoded body, the
 * RecordFilter keeps those whose condition holds, the stream's transformations change them (before
 * the filter with `transform_before_filtering`). Extraction: an empty `field_path` is the whole body;
 * a path with a glob (`*`) gives every value it matches; else the value at the path. A list gives its
 * items, a dict is one record; anything else (a scalar, nothing, an empty dict) gives none.
 */
import { isObject } from '../json-values.ts';
import type { DeclarativeStream, RecordSelector as RecordSelectorComponent } from '../model.ts';
import { getPath, globMatches, hasGlob, type Segment } from './dpath.ts';
import type { ReadRuntime } from './read-runtime.ts';
import { type RecordTransform, transformationsOf } from './transformations.ts';
import type { StreamSlice } from './templates.ts';

export type StreamRecord = Record<string, unknown>;

export interface SelectedPage {
  records: StreamRecord[];
  /** Records extracted before the filter: the page size pagination strategies compare with their page_size. */
  extracted: number;
}

export class RecordSelector {
  private readonly path: Segment[];
  private readonly transforms: RecordTransform[];

  constructor(
    private readonly component: RecordSelectorComponent,
    stream: DeclarativeStream,
    private readonly runtime: ReadRuntime,
  ) {
    const extractor = component.extractor;
    const context = { config: runtime.config, parameters: extractor.$parameters ?? {} };
    // Each segment is a template (`"0"` becomes the index 0, as literal_eval makes it).
    this.path = (extractor.field_path ?? []).map((segment) => {
      const value = runtime.templates.string(segment, context);
      return typeof value === 'number' ? value : String(value);
    });
    this.transforms = transformationsOf(stream.transformations, runtime.templates, runtime.config);
  }

  select(bodies: readonly unknown[], slice: StreamSlice, nextPageToken: Record<string, unknown> | null): SelectedPage {
    const records: StreamRecord[] = [];
    let extracted = 0;
    const condition = this.component.record_filter?.condition;
    const filtering = typeof condition === 'string' && condition !== '';
    const transformFirst = this.component.transform_before_filtering === true;
    const parameters = this.component.record_filter?.$parameters ?? {};
    for (const body of bodies) {
      for (const record of this.extract(body)) {
        extracted++;
        if (transformFirst) this.transform(record, slice);
        if (
          filtering &&
          !this.runtime.templates.boolean(condition, { config: this.runtime.config, parameters, record, stream_slice: slice, next_page_token: nextPageToken })
        ) {
          continue;
        }
        if (!transformFirst) this.transform(record, slice);
        records.push(record);
      }
    }
    return { records, extracted };
  }

  private transform(record: StreamRecord, slice: StreamSlice): void {
    for (const transform of this.transforms) transform(record, slice);
  }

  private extract(body: unknown): StreamRecord[] {
    let found: unknown;
    if (this.path.length === 0) found = body;
    else if (hasGlob(this.path)) found = globMatches(body, this.path).map(([, value]) => value);
    else found = getPath(body, this.path, []);
    if (Array.isArray(found)) return found.filter(isObject);
    return isObject(found) && Object.keys(found).length > 0 ? [found] : [];
  }
}
