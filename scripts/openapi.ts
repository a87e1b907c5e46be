// npm run openapi: writes docs/openapi.json from the route table. The server test openapi.db.test.ts fails while
// the committed file and the code disagree, so run this after changing a route and commit the result.
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '@portal/domain';

const target = new URL('../docs/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
