// A sample letter to send: one A4 page the sandbox serves, so that a first letter needs no file of
// one's own (the sandbox downloads PDF URLs from 127.0.0.1 only, and n8n reads few folders).
import type { Reply } from './http';
import { textPdf } from './pdf';

export const SAMPLE_LETTER_PATH = '/samples/letter.pdf';

const SAMPLE_LETTER = textPdf('Carta de exemplo / Sample letter', [
	'Prezada Ana Pereira,',
	'',
	'esta e uma carta de exemplo enviada pelo sandbox do servico postal.',
	'This is a sample letter, sent through the postal-mail service sandbox.',
	'',
	'Atenciosamente,',
	'n8n-nodes-postal-service',
]);

export function sampleLetter(): Reply {
	return { status: 200, body: null, raw: SAMPLE_LETTER, headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="letter.pdf"' } };
}
