/**
 * The CDK's SimpleRetriever for one slice: request a page, decode it, select its records, yield them,
 * then ask the paginator for the next token, until it has none. Only the page in hand is held: the next
 * request goes out when the last record of this page has been consumed. An IGNOREd error answer yields
 * nothing and ends the slice's pagination.
 */
import type { DeclarativeStream } from '../model.ts';
import { decodeBodies } from './json-decoder.ts';
import { type PageToken, type PaginatorRuntime, paginatorFor } from './paginator.ts';
import type { ReadRuntime } from './read-runtime.ts';
import { RecordSelector, type StreamRecord } from './record-selector.ts';
import type { RequestParts } from './request-parts.ts';
import { Requester } from './requester.ts';
import type { StreamSlice } from './templates.ts';

export interface SliceReadOptions {
  /** What the partition router and the cursor inject for this slice. */
  sliceOptions: Partial<RequestParts>[];
  /** A data feed's stop: pagination ends after a page whose last record this refuses. */
  keepPaging?: (lastRecord: StreamRecord) => boolean;
  /** Read the first page only (a connection check). */
  firstPageOnly?: boolean;
}

export class Retriever {
  private readonly requester: Requester;
  private readonly paginator: PaginatorRuntime;
  private readonly selector: RecordSelector;
  private readonly ignoreSlicerOnLaterPages: boolean;

  constructor(stream: DeclarativeStream, runtime: ReadRuntime) {
    const retriever = stream.retriever;
    this.requester = new Requester(retriever.requester, runtime);
    this.paginator = paginatorFor(retriever.paginator, runtime);
    this.selector = new RecordSelector(retriever.record_selector, stream, runtime);
    this.ignoreSlicerOnLaterPages = retriever.ignore_stream_slicer_parameters_on_paginated_requests === true;
  }

  /** A page's records at a time (handing records over one by one through every layer costs more than reading them). */
  async *read(slice: StreamSlice, options: SliceReadOptions): AsyncGenerator<StreamRecord[]> {
    let token: PageToken | undefined = this.paginator.initialToken();
    for (let page = 0; ; page++) {
      const nextPageToken = token === undefined ? null : { next_page_token: token };
      const slicerOptions = this.ignoreSlicerOnLaterPages && page > 0 ? [] : options.sliceOptions;
      const path = this.paginator.path(token);
      const answer = await this.requester.send({
        slice,
        nextPageToken,
        ...(path === undefined ? {} : { path }),
        options: [...this.paginator.options(token), ...slicerOptions],
      });
      if (answer.ignored && !answer.response.ok) return;
      const bodies = decodeBodies(answer.response.body);
      const selected = this.selector.select(bodies, slice, nextPageToken);
      const lastRecord = selected.records.length ? selected.records[selected.records.length - 1]! : null;
      const decoded = bodies[0];
      // The page's body is released once its records are out; only the facts pagination reads are kept.
      bodies.length = 0;
      if (selected.records.length > 0) yield selected.records;
      if (options.firstPageOnly) return;
      if (lastRecord && options.keepPaging && !options.keepPaging(lastRecord)) return;
      token = this.paginator.nextToken({ response: answer.response, decoded, lastRecord, lastPageSize: selected.extracted }, token);
      if (token === undefined) return;
    }
  }
}
