/**
 * The file-storage connector's `fields` handling: Google's partial-response selectors, and the
 * prepareParams hooks that widen a caller's selection with what paging and the record schema need.
 */
import { describe, expect, it } from 'vitest';
import { widenSelector } from '../connectors/file-storage/actions/field-selector.ts';
import { widenListSelection, widenRecordSelection } from '../connectors/file-storage/actions/fields.ts';
import type { FilesGetParams, FilesListParams } from '../connectors/file-storage/types.generated.ts';

describe('widenSelector', () => {
  it('adds each path the selector does not select, and leaves it as it was when it selects them all', () => {
    expect(widenSelector('files(name)', ['nextPageToken', 'files/id'])).toBe('files(name),nextPageToken,files/id');
    expect(widenSelector('nextPageToken,files(id,name)', ['nextPageToken', 'files/id'])).toBe('nextPageToken,files(id,name)');
    expect(widenSelector('name', ['id'])).toBe('name,id');
  });

  it('knows that a whole field, a slash path or a star selects what lies beneath', () => {
    expect(widenSelector('files', ['files/id'])).toBe('files');
    expect(widenSelector('files/id', ['files/id'])).toBe('files/id');
    expect(widenSelector('*', ['nextPageToken', 'files/id'])).toBe('*');
    expect(widenSelector('files(*)', ['files/id'])).toBe('files(*)');
    expect(widenSelector('files/*', ['files/id'])).toBe('files/*');
  });

  it('does not take a deeper or a different selection for the path', () => {
    expect(widenSelector('files/owners', ['files/id'])).toBe('files/owners,files/id');
    expect(widenSelector('files/id/x', ['files/id'])).toBe('files/id/x,files/id');
    expect(widenSelector('filesX(id)', ['files/id'])).toBe('filesX(id),files/id');
  });

  it('reads nested sub-selections and ignores commas inside parentheses and stray spaces', () => {
    expect(widenSelector('comments(id,replies(content))', ['comments/replies/id'])).toBe('comments(id,replies(content)),comments/replies/id');
    expect(widenSelector('comments(replies(id, content))', ['comments/replies/id'])).toBe('comments(replies(id, content))');
    expect(widenSelector(' nextPageToken , files( id )', ['nextPageToken', 'files/id'])).toBe(' nextPageToken , files( id )');
  });
});

describe('the selection hooks', () => {
  it("widen a list's selection with its paging meta and each record's id", () => {
    const { prepareParams } = widenListSelection<FilesListParams>('files', ['nextPageToken', 'incompleteSearch']);
    const params: FilesListParams = { pageSize: 3, fields: 'files(name)' };
    expect(prepareParams?.(params)).toEqual({ pageSize: 3, fields: 'files(name),nextPageToken,incompleteSearch,files/id' });
    expect(params.fields).toBe('files(name)');
  });

  it("widen a record's selection with its id", () => {
    const { prepareParams } = widenRecordSelection<FilesGetParams>();
    expect(prepareParams?.({ fileId: 'f1', fields: 'name' })).toEqual({ fileId: 'f1', fields: 'name,id' });
  });

  it('leave params without a selection alone: the default selects every field', () => {
    const { prepareParams } = widenListSelection<FilesListParams>('files');
    const params: FilesListParams = { pageSize: 3 };
    expect(prepareParams?.(params)).toBe(params);
  });
});
