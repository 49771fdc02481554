/**
 * The writing operations of the fault matrix: the node parameters of each, how a cell prepares what
 * it writes to (straight against the sandbox, not through the node under test), and how many times
 * the service carried out each input item's write.
 */
import type { Sandbox } from '../../sandbox';
import type { TestItem } from '../harness/engine';
import { EVERY_OPERATION, makePdf } from '../harness/sends';

export const CHAT = {
	email: 'conta@example.com',
	/** Seeded chat-app numbers of the sandbox. */
	phones: ['+5511987654321', '+5521999990000', '+5511912345678'],
};

export interface Prepared {
	items: TestItem[];
	/** How many times the service carried out the write of each input item, in item order. */
	carriedOut(): number[];
}

let pdf: Promise<Buffer> | undefined;
const onePagePdf = () => (pdf ??= makePdf(1));

const basic = (sandbox: Sandbox) => `Basic ${Buffer.from(`${sandbox.email}:${sandbox.token}`).toString('base64')}`;

/** Accepted (status 200) requests of a route in the sandbox's log, per key. */
function accepted(sandbox: Sandbox, method: string, path: string, keyOf: (r: ReturnType<Sandbox['control']['requests']>[number]) => string, keys: string[]) {
	const log = sandbox.control.requests({ method, path }).filter((r) => r.status === 200);
	return keys.map((key) => log.filter((r) => keyOf(r) === key).length);
}

/** Letters made at the service as the panel's sample letter is (through its create route), out of its request log. */
async function lettersAtService(sandbox: Sandbox, count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) ids.push(String((await sandbox.control.sendSampleLetter()).id));
	sandbox.control.clearRequests();
	return ids;
}

async function stuckMessages(sandbox: Sandbox, count: number): Promise<string[]> {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		const response = await fetch(`${sandbox.baseUrl}/api/chat/v1/post`, {
			method: 'POST',
			headers: { authorization: basic(sandbox), 'content-type': 'application/json' },
			body: JSON.stringify({ phone: CHAT.phones[i % CHAT.phones.length], template_id: 101, sender_id: 1, variables: { nome: 'Ana' } }),
		});
		const { data } = (await response.json()) as { data: { message_id: number } };
		sandbox.control.setChatMessageStatus(data.message_id, 2);
		ids.push(String(data.message_id));
	}
	sandbox.control.clearRequests();
	return ids;
}

type Setup = (sandbox: Sandbox, cell: string, count: number) => Promise<Prepared>;

/** How a write of EVERY_OPERATION is varied per item, prepared and counted (`effect`: what "carried out" means for it); a write missing here fails the suite. */
const WRITES: Record<string, { effect: string; method: string; path: string; perItem: Record<string, unknown>; setup: Setup }> = {
	'order.create': {
		effect: 'became an order',
		method: 'POST',
		path: '/api/v2/post',
		perItem: { tag: '={{ $json.tag }}' },
		async setup(sandbox, cell, count) {
			const tags = Array.from({ length: count }, (_, i) => `${cell}-${i}`);
			const file = await onePagePdf();
			return {
				items: tags.map((tag) => ({ json: { tag }, binary: { data: { data: file, fileName: 'a.pdf', mimeType: 'application/pdf' } } })),
				carriedOut: () => tags.map((tag) => sandbox.control.orders().filter((o) => o.tag === tag).length),
			};
		},
	},
	'chatMessage.send': {
		effect: 'became a message',
		method: 'POST',
		path: '/api/chat/v1/post',
		perItem: { phone: '={{ $json.phone }}' },
		async setup(sandbox, _cell, count) {
			const phones = CHAT.phones.slice(0, count);
			return {
				items: phones.map((phone) => ({ json: { phone } })),
				carriedOut: () => phones.map((phone) => sandbox.control.chatMessages().filter((m) => m.phone === phone).length),
			};
		},
	},
	'chatMessage.reprocess': {
		effect: 'was reprocessed',
		method: 'POST',
		path: '/api/chat/v1/process',
		perItem: { messageId: '={{ $json.messageId }}' },
		async setup(sandbox, _cell, count) {
			const ids = await stuckMessages(sandbox, count);
			return {
				items: ids.map((messageId) => ({ json: { messageId: Number(messageId) } })),
				carriedOut: () => accepted(sandbox, 'POST', '/api/chat/v1/process', (r) => String(r.fields.message_id), ids),
			};
		},
	},
	'order.cancel': {
		effect: 'was cancelled',
		method: 'DELETE',
		path: '/api/v2/delete/',
		perItem: { orderId: '={{ $json.orderId }}' },
		async setup(sandbox, _cell, count) {
			const ids = await lettersAtService(sandbox, count);
			return {
				items: ids.map((orderId) => ({ json: { orderId } })),
				carriedOut: () => accepted(sandbox, 'DELETE', '/api/v2/delete/', (r) => r.path.split('/').pop() ?? '', ids),
			};
		},
	},
	'registeredEmail.cancel': {
		effect: 'was cancelled',
		method: 'DELETE',
		path: '/api/v2/delete/',
		perItem: { orderId: '={{ $json.orderId }}' },
		async setup(sandbox, _cell, count) {
			const ids = Array.from({ length: count }, (_, i) => String(sandbox.control.createEmailOrder({ email: `ana${i}@example.com` }).id));
			return {
				items: ids.map((orderId) => ({ json: { orderId } })),
				carriedOut: () => accepted(sandbox, 'DELETE', '/api/v2/delete/', (r) => r.path.split('/').pop() ?? '', ids),
			};
		},
	},
	'savedContact.update': {
		effect: 'was applied',
		method: 'PUT',
		path: '/api/v2/favorites',
		perItem: { contactId: '={{ $json.contactId }}', updateFields: { label: '={{ $json.label }}' } },
		async setup(sandbox, cell, count) {
			const labels = Array.from({ length: count }, (_, i) => `${cell}-${i}`);
			return {
				items: labels.map((label, i) => ({ json: { contactId: (i % 2) + 1, label } })),
				carriedOut: () => accepted(sandbox, 'PUT', '/api/v2/favorites', (r) => String(r.fields.label).split('|')[0], labels),
			};
		},
	},
};

// The reads of EVERY_OPERATION are the Timeout family's, and the token scan's through a proxy.
const unvaried = Object.entries(EVERY_OPERATION).filter(([key, { writes }]) => writes && !(key in WRITES));
if (unvaried.length > 0) throw new Error(`test/reliability/writes.ts: say how ${unvaried.map(([key]) => key).join(', ')} is varied, prepared and counted (WRITES)`);

/** Letter > Send once per way of checking first, each other write once: each from EVERY_OPERATION. */
const VARIANTS: Array<[key: string, label: string, additionalFields?: Record<string, unknown>]> = [
	['order.create', 'Letter > Send (Check With the Service First: Never)', { checkWithService: 'never' }],
	['order.create', 'Letter > Send (Check With the Service First: Auto, every item checked before any is sent)', {}],
	['order.create', 'Letter > Send (Maximum Price: each item priced just before it is sent)', { checkWithService: 'never', maxPrice: 1000 }],
	['chatMessage.send', 'Chat Message > Send'],
	['chatMessage.reprocess', 'Chat Message > Reprocess'],
	['order.cancel', 'Order > Cancel'],
	['registeredEmail.cancel', 'Registered E-Mail > Cancel'],
	['savedContact.update', 'Saved Contact > Update'],
];

export type Operation = (typeof OPERATIONS)[number];
export const OPERATIONS = VARIANTS.map(([key, label, additionalFields], index) => {
	const { perItem, ...write } = WRITES[key];
	const parameters = { ...EVERY_OPERATION[key].parameters, ...perItem, ...(additionalFields ? { additionalFields } : {}) };
	return { key: `${key}#${index}`, label, parameters, ...write };
});
