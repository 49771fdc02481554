// Types of releasedParameters.mjs, which `npm run release` runs with plain node.
import type { ICredentialType, INodeProperties, INodeType } from 'n8n-workflow';

export type ParameterRecord = Array<Record<string, unknown> & { name: string }>;
export declare const RECORD_FILE: string;
export declare function readRecords(file?: string): Record<string, ParameterRecord>;
export declare function parameterRecord(properties: INodeProperties[], version?: number): ParameterRecord;
export declare function recordsOf(nodeTypes: INodeType[], credentialTypes: ICredentialType[]): Record<string, ParameterRecord>;
export declare function brokenPromises(released: ParameterRecord, current: ParameterRecord, where?: string): string[];
