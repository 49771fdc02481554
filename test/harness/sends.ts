/**
 * What the suites send: a registered letter (the node's parameters and a PDF item) and a chat
 * template message. Apart from test/node/fixture.ts (which registers vitest hooks), so that
 * scripts and benchmarks share them.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

import { RESOURCES } from '../../nodes/PostalService/actions/resources';
import type { TestItem } from './engine';

/** The action node's two credentials, both at one Base URL. */
export function credentialsAt(baseUrl: string, token: string, email = 'conta@example.com') {
	return { postalServiceApi: { baseUrl, securityToken: token }, postalServiceChatApi: { baseUrl, email, securityToken: token } };
}

/** A PDF with the given number of pages, each saying its number. */
export async function makePdf(pages: number): Promise<Buffer> {
	const doc = await PDFDocument.create();
	const font = await doc.embedFont(StandardFonts.Helvetica);
	for (let i = 1; i <= pages; i++) {
		const page = doc.addPage([595, 842]);
		page.drawText(`Página ${i} de ${pages}`, { x: 72, y: 760, size: 18, font });
	}
	return Buffer.from(await doc.save());
}

/** A registered letter to a São Paulo address, PDF from the input item's binary property `data`. */
export const LETTER = {
	resource: 'order',
	operation: 'create',
	shipType: 2,
	recipientName: 'Maria da Silva',
	recipientAddr1: 'Avenida Paulista',
	recipientStreetNumber: '1578',
	recipientZip: '01310-200',
	recipientCity: 'São Paulo',
	recipientState: 'SP',
	recipientCountry: 'Brasil',
	pdfSource: 'binary',
	binaryPropertyName: 'data',
};

export async function pdfItem(pages = 1, json: Record<string, unknown> = {}): Promise<TestItem> {
	return { json: json as TestItem['json'], binary: { data: { data: await makePdf(pages), fileName: 'carta.pdf', mimeType: 'application/pdf' } } };
}

/**
 * A template message to a chat-app number the sandbox knows, from its seeded sender 2 and approved
 * template 102, with the variables mapped by name.
 */
export const CHAT_MESSAGE = {
	resource: 'chatMessage',
	operation: 'send',
	senderId: 2,
	templateId: 102,
	phone: '+55 11 98765-4321',
	variables: {
		mappingMode: 'defineBelow',
		value: { nome: 'Maria', valor: 'R$ 120,00', vencimento: '30/11' } as Record<string, string>,
	},
};

/**
 * Parameters that make each operation of the node send its request, by `resource.operation`: enough
 * for a request to leave, whatever the answer (an order id the service may not know, for example);
 * `pdf` when its item needs a PDF.
 */
const PARAMETERS: Record<string, { parameters: Record<string, unknown>; pdf?: true }> = {
	'order.create': { parameters: { ...LETTER, additionalFields: { checkWithService: 'never' } }, pdf: true },
	'order.getPrice': { parameters: { ...LETTER, operation: 'getPrice' }, pdf: true },
	...Object.fromEntries(['get', 'downloadFile', 'cancel'].map((operation) => [`order.${operation}`, { parameters: { resource: 'order', operation, orderId: '100001' } }])),
	...Object.fromEntries(['get', 'downloadFile', 'cancel'].map((operation) => [`registeredEmail.${operation}`, { parameters: { resource: 'registeredEmail', operation, orderId: 'E5001' } }])),
	'chatMessage.send': { parameters: CHAT_MESSAGE },
	'chatMessage.reprocess': { parameters: { resource: 'chatMessage', operation: 'reprocess', messageId: '9001' } },
	'account.getBalance': { parameters: { resource: 'account', operation: 'getBalance' } },
	'account.getLogo': { parameters: { resource: 'account', operation: 'getLogo' } },
	'receipt.get': { parameters: { resource: 'receipt', operation: 'get', orderId: '100001' } },
	'chatTemplate.getMany': { parameters: { resource: 'chatTemplate', operation: 'getMany', returnAll: true } },
	'chatSender.getMany': { parameters: { resource: 'chatSender', operation: 'getMany', returnAll: true } },
	'savedContact.update': { parameters: { resource: 'savedContact', operation: 'update', contactId: 1, updateFields: { city: 'Recife' } } },
};

/**
 * The suites' one table of the node's operations, by `resource.operation`: PARAMETERS, and `writes`
 * read from the operation's own file (Retry On Fail refused, never repeated after an unclear outcome).
 */
export const EVERY_OPERATION: Record<string, { parameters: Record<string, unknown>; pdf?: true; writes: boolean }> = Object.fromEntries(
	Object.entries(PARAMETERS).map(([key, entry]) => {
		const [resource, operation] = key.split('.');
		return [key, { ...entry, writes: RESOURCES[resource]?.operations[operation]?.writes === true }];
	}),
);

/** EVERY_OPERATION with the items each runs over in the harness: a one-page PDF where it needs one. */
export async function everyOperation(): Promise<Record<string, { parameters: Record<string, unknown>; items?: TestItem[]; writes: boolean }>> {
	const letter = [await pdfItem(1)];
	return Object.fromEntries(Object.entries(EVERY_OPERATION).map(([key, { parameters, pdf, writes }]) => [key, { parameters, writes, ...(pdf ? { items: letter } : {}) }]));
}
