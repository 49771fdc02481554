import type { E2eEnvironment } from './environment';

export async function runExamples(_env: E2eEnvironment): Promise<void> {
	throw new Error('the example workflows are not written yet');
}
