// What the scripted model does in the agent tests, turn by turn, reading what the tools answered
// as a model would: the price it quotes and the order id it reports come from the tool results.
import type { Conversation, Script, ToolCall } from './chatModelServer';

/** The tool names n8n derives from the example's tool node names. */
export const PRICE_TOOL = 'Get_letter_price';
export const SEND_TOOL = 'Send_letter';

export interface Letter {
	Recipient_Name: string;
	Recipient_Street: string;
	Recipient_Number: string;
	Recipient_Complement: string;
	Recipient_Postal_Code: string;
	Recipient_City: string;
	Recipient_State: string;
	PDF_URL: string;
}

/** The first value under `key` anywhere in a tool's JSON answer. */
export function findInResult(content: string, key: string): unknown {
	let parsed: unknown;
	try {
		parsed = JSON.parse(content);
	} catch {
		return undefined;
	}
	const queue: unknown[] = [parsed];
	while (queue.length) {
		const value = queue.shift();
		if (Array.isArray(value)) queue.push(...value);
		else if (value && typeof value === 'object') {
			if (key in value) return (value as Record<string, unknown>)[key];
			queue.push(...Object.values(value));
		}
	}
	return undefined;
}

const lastResult = (conversation: Conversation, tool: string) => conversation.toolResults.filter((r) => r.name === tool).at(-1);

const call = (name: string, letter: Letter): { toolCalls: ToolCall[] } => ({ toolCalls: [{ name, arguments: { ...letter } }] });

/** Asks for the price; sends the letter when the price is within the user's limit; reports the id. */
export function priceThenSend(name: string, prompt: string, letter: Letter, limit: number): Script {
	return {
		name,
		matches: (text) => text === prompt,
		turns: [
			() => call(PRICE_TOOL, letter),
			(conversation) => {
				const quote = lastResult(conversation, PRICE_TOOL);
				const price = Number(findInResult(quote?.content ?? '', 'value'));
				if (!Number.isFinite(price)) return { text: `I could not get a price. The tool said: ${quote?.content}` };
				if (price > limit) return { text: `The letter costs R$ ${price}, more than your limit of R$ ${limit}; I did not send it.` };
				return call(SEND_TOOL, letter);
			},
			(conversation) => {
				const price = Number(findInResult(lastResult(conversation, PRICE_TOOL)?.content ?? '', 'value'));
				const sent = lastResult(conversation, SEND_TOOL);
				const id = findInResult(sent?.content ?? '', 'id');
				if (typeof id !== 'string' || !id) return { text: `Sending failed. The tool said: ${sent?.content}` };
				return { text: `Your registered letter to ${letter.Recipient_Name} is on its way: order ${id}, price R$ ${price.toFixed(2)}.` };
			},
		],
	};
}
