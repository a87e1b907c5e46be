import { ACCESS_LEVEL_TEXTS, type AccessLevel, OPENAPI_TITLE, operationsOf, ROUTES } from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { Badge, Spinner, Table } from 'react-bootstrap';
import { useBrandedDocument } from '../../app/branding';
import { useSession } from '../../app/session';

const METHOD_VARIANTS: Record<string, string> = { GET: 'primary', POST: 'success', PUT: 'warning', DELETE: 'danger' };
const DOCUMENT_URL = ROUTES.openApi.document.build();

/** The OpenAPI document as it is served (not an envelope: the document itself). */
async function fetchDocument(): Promise<unknown> {
  const response = await fetch(DOCUMENT_URL, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

/** The API reference (issue 18): every operation of /api/openapi.json with its parameters and audience. */
export function ApiReferencePage() {
  // Outside the shell and the sign-in frame, like the manual: the tab reads '<API reference> · <brand>'.
  useBrandedDocument(useSession().data.branding, OPENAPI_TITLE);
  const document = useQuery({ queryKey: ['openapi'], queryFn: fetchDocument, staleTime: Number.POSITIVE_INFINITY });
  const operations = document.data ? operationsOf(document.data) : [];
  return (
    <main className="container py-4">
      <h1 className="h3">{OPENAPI_TITLE}</h1>
      <p>
        Every JSON call of the portal, from the OpenAPI 3.1 document <a href={DOCUMENT_URL}>{DOCUMENT_URL}</a>. Call
        them with a personal API token made in your profile, as <code>Authorization: Bearer &lt;token&gt;</code>: it has
        exactly your rights, and a read-only token only reads. Each call answers the envelope{' '}
        <code>{'{ status, messages, responseSummaryCode, result }'}</code>.
      </p>
      {document.isPending ? (
        <Spinner animation="border" role="status" />
      ) : document.isError ? (
        <p className="text-danger">The API document could not be loaded.</p>
      ) : (
        <Table size="sm" responsive aria-label="API operations" data-testid="api-operations">
          <thead>
            <tr>
              <th>Method</th>
              <th>Path</th>
              <th>Parameters</th>
              <th>Who may call</th>
            </tr>
          </thead>
          <tbody>
            {operations.map((operation) => (
              <tr key={operation.operationId}>
                <td>
                  <Badge bg={METHOD_VARIANTS[operation.method] ?? 'secondary'}>{operation.method}</Badge>
                </td>
                <td>
                  <code>{operation.path}</code>
                  <div className="small text-body-secondary">{operation.operationId}</div>
                </td>
                <td className="small">
                  {[
                    ...operation.parameters.map((p) => `${p.name} (${p.in}${p.required ? ', required' : ''})`),
                    ...(operation.hasBody ? ['JSON body'] : []),
                  ].join(', ')}
                </td>
                <td className="small">{ACCESS_LEVEL_TEXTS[operation.access as AccessLevel] ?? operation.access}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </main>
  );
}
