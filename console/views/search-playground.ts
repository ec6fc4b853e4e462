import { useState } from 'preact/hooks';
import type { ConnectorList, ExecuteResponse } from '../../core/hosted/types.generated.ts';
import { ApiError, call, type ValidationIssue } from '../api.ts';
import { Field } from '../forms.ts';
import { html } from '../html.ts';
import { useCan } from '../permissions.ts';
import { usePoll } from '../poll.ts';
import { href } from '../route.ts';
import { Empty, ErrorNote } from '../states.ts';

interface SearchResult {
  hits: Array<{ id: string; score: number; data: unknown }>;
  next_cursor: string | null;
  took_ms: number;
}

interface Query {
  connectorId: string;
  entity: string;
  filter: unknown;
  limit: number;
}

const PAGE_SIZES = [5, 10, 25, 100];

/** The context store's search on a connector of the workspace: a filter typed as JSON, the API's 422 shown by the editor, hits paged by cursor. */
export function SearchPlayground({ workspaceId }: { workspaceId: string }) {
  const canSearch = useCan('run', workspaceId);
  const connectors = usePoll<ConnectorList>(`/workspace/${workspaceId}/api/v1/integrations/connectors`);
  const [result, setResult] = useState<SearchResult>();
  const [error, setError] = useState<ApiError>();
  const [query, setQuery] = useState<Query>();
  const [page, setPage] = useState(1);

  const run = async (next: Query, cursor: string | undefined, pageNumber: number) => {
    setError(undefined);
    try {
      const params = { query: next.filter === undefined ? {} : { filter: next.filter }, limit: next.limit, ...(cursor ? { cursor } : {}) };
      const answer = await call<ExecuteResponse>('POST', `/workspace/${workspaceId}/api/v1/connectors/sources/${next.connectorId}/execute`, {
        entity: next.entity,
        action: 'search',
        params,
      });
      setResult(answer.result as SearchResult);
      setQuery(next);
      setPage(pageNumber);
    } catch (failure) {
      setResult(undefined);
      setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)));
    }
  };
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const fields = new FormData(event.currentTarget as HTMLFormElement);
    const text = String(fields.get('filter') ?? '').trim();
    let filter: unknown;
    try {
      filter = text ? JSON.parse(text) : undefined;
    } catch (syntax) {
      setResult(undefined);
      setError(new ApiError(422, [{ loc: ['filter'], msg: `not JSON: ${(syntax as Error).message}`, type: 'value_error.json' }]));
      return;
    }
    void run({ connectorId: String(fields.get('connector')), entity: String(fields.get('entity')), filter, limit: Number(fields.get('limit')) }, undefined, 1);
  };

  const issues = error && Array.isArray(error.detail) ? error.detail : [];
  const list = connectors.data?.data ?? [];
  return html`<h1 tabindex="-1">Search</h1>
    <p><a href=${href('workspaces', workspaceId)}>Back to the workspace</a></p>
    <${ErrorNote} error=${connectors.error} />
    ${!canSearch && html`<${Empty}>Searching runs a connector's action: your application needs a runner's permission in this workspace.<//>`}
    ${canSearch && connectors.data && list.length === 0 && html`<${Empty}>No connector in this workspace yet: end users connect one through the widget.<//>`}
    ${
      canSearch &&
      list.length > 0 &&
      html`<form class="panel search" onSubmit=${onSubmit} aria-labelledby="search-form-heading">
      <h2 id="search-form-heading">Query</h2>
      <${Field} id="search-connector" label="Connector">
        <select id="search-connector" name="connector">
          ${list.map((connector) => html`<option value=${connector.id}>${connector.name} (${connector.connector_type}, ${connector.external_user_id})</option>`)}
        </select>
      <//>
      <${Field} id="search-entity" label="Entity" hint="Chat: users, channels, channel_messages, threads; file storage: files.">
        <input id="search-entity" name="entity" value="users" required aria-describedby="search-entity-hint" />
      <//>
      <${Field} id="search-filter" label="Filter (JSON)" hint='For example {"eq": {"is_bot": false}}; empty matches everything. See docs/search.md.'>
        <textarea
          id="search-filter"
          name="filter"
          rows="5"
          aria-invalid=${issues.length > 0}
          aria-describedby=${issues.length > 0 ? 'search-filter-hint search-issues' : 'search-filter-hint'}
        ></textarea>
      <//>
      ${issues.length > 0 && html`<${FilterIssues} issues=${issues} />`}
      <${Field} id="search-limit" label="Hits per page">
        <select id="search-limit" name="limit">${PAGE_SIZES.map((size) => html`<option value=${size} selected=${size === 10}>${size}</option>`)}</select>
      <//>
      ${error && issues.length === 0 && html`<${ErrorNote} error=${error} />`}
      <button type="submit">Search</button>
    </form>`
    }
    ${result && query && html`<${SearchHits} result=${result} page=${page} onNext=${() => run(query, result.next_cursor ?? undefined, page + 1)} onFirst=${() => run(query, undefined, 1)} />`}`;
}

/** A 422's issues beside the editor, each with where in the request it points. */
function FilterIssues({ issues }: { issues: ValidationIssue[] }) {
  return html`<div id="search-issues" class="issues" role="alert">
    <p>The server refused this search:</p>
    <ul>${issues.map((issue) => html`<li><code>${issue.loc.join('.')}</code>: ${issue.msg}</li>`)}</ul>
  </div>`;
}

function SearchHits({ result, page, onNext, onFirst }: { result: SearchResult; page: number; onNext: () => void; onFirst: () => void }) {
  return html`<section aria-labelledby="hits-heading">
    <h2 id="hits-heading">Results, page ${page}</h2>
    <p class="muted" role="status">${result.hits.length} hits on this page, in ${result.took_ms} ms${result.next_cursor ? '; more on the next page' : '; the last page'}.</p>
    ${result.hits.length === 0 && html`<${Empty}>Nothing matches: loosen the filter, or check that the entity has been replicated.<//>`}
    <ol class="hits">
      ${result.hits.map((hit) => html`<li key=${hit.id}><strong>${hit.id}</strong> <span class="muted">score ${hit.score.toFixed(2)}</span><pre>${JSON.stringify(hit.data, null, 2)}</pre></li>`)}
    </ol>
    <div class="actions">
      ${page > 1 && html`<button type="button" class="secondary" onClick=${onFirst}>First page</button>`}
      ${result.next_cursor && html`<button type="button" onClick=${onNext}>Next page</button>`}
    </div>
  </section>`;
}
