import type { TemplateStatus } from '../nodes/PostalService/contract/lists';
import { ACCOUNT_USER_ID, chatTemplate, DEMO_ADDRESS, type ChatSender, type State } from './state';
import { saoPauloDateTime } from './util';

// The demo account a fresh sandbox starts with: two favorites, chat numbers and senders, one template per status.

export function seedState(balance: number): State {
	const now = saoPauloDateTime();
	const senders: ChatSender[] = [
		{ id: 1, name: 'Serviço Oficial', phone: '+5511900000001', is_system: true, status: 'active', created_at: now },
		{ id: 2, name: 'Loja Exemplo', phone: '+5511988887777', is_system: false, status: 'active', created_at: now },
	];
	const template = (id: number, sender: ChatSender, name: string, status: TemplateStatus, body: string, variableNames: string[]) =>
		chatTemplate({ id, sender, name, status, body, variableNames, syncedAt: now });
	const [system, shop] = senders;
	return {
		balance,
		clientContract: true,
		nextOrderId: 100001,
		nextEmailId: 5001,
		nextMessageId: 9001,
		orders: [],
		favorites: [
			{
				id: 1,
				id_user: ACCOUNT_USER_ID,
				label: 'Fornecedor',
				name: 'Maria da Silva',
				email: 'maria@example.com',
				phone: '+5511987654321',
				document: '12345678909',
				...DEMO_ADDRESS,
				list_letter: 1,
				list_email: 1,
				list_whatsapp: 0,
				dateCreated: now,
			},
			{
				id: 2,
				id_user: ACCOUNT_USER_ID,
				label: 'Cliente',
				name: 'João Souza',
				email: 'joao@example.com',
				phone: '+5521999990000',
				document: '',
				addr1: 'Rua do Ouvidor',
				street_number: '50',
				addr2: '',
				zip: '20040-030',
				city: 'Rio de Janeiro',
				state: 'RJ',
				country: 'Brasil',
				list_letter: 1,
				list_email: 0,
				list_whatsapp: 1,
				dateCreated: now,
			},
		],
		chatNumbers: ['+5511987654321', '+5521999990000', '+5511912345678', '+5511955554444'],
		chatAllowList: ['+5511987654321', '+5521999990000', '+5511912345678'],
		emailAllowList: ['@example.com', '@example.org'],
		senders,
		templates: [
			template(101, system, 'boas_vindas', 'approved', 'Olá {{1}}, seja bem-vindo!', ['nome']),
			template(
				102,
				shop,
				'lembrete_pagamento',
				'approved',
				'Olá {{1}}, sua fatura de {{2}} vence em {{3}}.',
				['nome', 'valor', 'vencimento'],
			),
			template(103, shop, 'aviso_entrega', 'pending', 'Seu pedido {{1}} saiu para entrega.', ['pedido']),
			template(104, shop, 'promocao_relampago', 'rejected', 'Promoção só hoje!', []),
			template(105, system, 'notificacao_extrajudicial', 'paused', 'Notificação para {{1}}.', ['nome']),
			template(106, shop, 'pesquisa_satisfacao', 'disabled', 'Avalie nosso atendimento, {{1}}.', ['nome']),
		],
		chatMessages: [],
	};
}
