import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// A screen loaded by route (a lazy chunk) can take more than testing-library's default second to appear on a
// loaded 2-core CI machine; findBy and waitFor still answer as soon as what they wait for is there.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => cleanup());
