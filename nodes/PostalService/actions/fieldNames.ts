import { ASSUMED } from '../contract/assumptions';
import { CREATE_FIELD_NAMES } from './order/create.description';

const LETTER_ID = { orderId: 'Letter ID' };
const EMAIL_ID = { orderId: 'Registered E-Mail ID' };

/** Per `resource.operation`: the node field behind each wire name its errors use. */
const FIELD_NAMES: Record<string, Record<string, string>> = {
	'order.create': CREATE_FIELD_NAMES,
	'order.getPrice': CREATE_FIELD_NAMES,
	'order.get': LETTER_ID,
	'order.cancel': LETTER_ID,
	'order.downloadFile': { ...LETTER_ID, type: 'File Type' },
	'registeredEmail.get': EMAIL_ID,
	'registeredEmail.cancel': EMAIL_ID,
	'registeredEmail.downloadFile': { ...EMAIL_ID, type: 'File Type' },
	'receipt.get': { [ASSUMED.receiptOrderIdParam]: 'Order ID' },
	'chatMessage.reprocess': { message_id: 'Message ID' },
	'savedContact.update': { id: 'Contact ID' },
	'chatMessage.send': {
		sender_id: 'Sender',
		template_id: 'Template',
		phone: 'Recipient Phone',
		variables: 'Template Variables',
		paymentMethod: 'Payment Method',
		team_member_id: 'Team Member ID',
	},
};

export function fieldNamesOf(resource: unknown, operation: unknown): Record<string, string> {
	return FIELD_NAMES[`${String(resource)}.${String(operation)}`] ?? {};
}
