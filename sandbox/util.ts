import { createHash, randomBytes } from 'node:crypto';

const saoPauloParts = new Intl.DateTimeFormat('en-CA', {
	timeZone: 'America/Sao_Paulo',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
	second: '2-digit',
	hourCycle: 'h23',
});

/** `Y-m-d H:i:s` in America/Sao_Paulo: the format the service's webhooks use for every timestamp. */
export function saoPauloDateTime(date: Date = new Date()): string {
	const parts = Object.fromEntries(saoPauloParts.formatToParts(date).map((p) => [p.type, p.value]));
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** `Y-m-d` of the given instant in America/Sao_Paulo (the service decides "tomorrow" in Brazil). */
export function saoPauloDate(date: Date = new Date()): string {
	return saoPauloDateTime(date).slice(0, 10);
}

export function sha256Hex(data: Uint8Array | string): string {
	return createHash('sha256').update(data).digest('hex');
}

export function requestId(): string {
	return randomBytes(8).toString('hex');
}

export function round2(n: number): number {
	return Math.round(n * 100) / 100;
}

/** Lower case, no accents, single spaces: how city names are compared. */
export function normalizeText(s: string): string {
	return s
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/\s+/g, ' ')
		.trim()
		.toLowerCase();
}

export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}
