import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from 'typebox';
import { AppError, type ErrorDetail } from './errors/app-error.js';

const ajv = new Ajv({ useDefaults: true, allErrors: true, strict: false, removeAdditional: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);

function detail(e: ErrorObject, prefix: string): ErrorDetail {
  const path = [prefix, ...e.instancePath.split('/').filter(Boolean)];
  if (e.keyword === 'required') return { field: [...path, e.params.missingProperty].filter(Boolean).join('.'), message: 'is required' };
  if (e.keyword === 'additionalProperties')
    return { field: [...path, e.params.additionalProperty].filter(Boolean).join('.'), message: 'is not a known field' };
  return { field: path.filter(Boolean).join('.') || prefix, message: e.message ?? 'is invalid' };
}

/**
 * Validates (and fills defaults into a copy of) a value the route schema could not know in advance,
 * such as a source's type-specific `config`. Throws `validation_failed` naming each field.
 */
export function validatorFor<T extends TSchema>(schema: T, fieldPrefix: string) {
  const validate = ajv.compile(schema);
  return (value: unknown): Static<T> => {
    const copy = structuredClone(value);
    if (validate(copy)) return copy as Static<T>;
    const details = (validate.errors ?? []).map((e) => detail(e, fieldPrefix));
    throw new AppError('validation_failed', `${details[0]?.field} ${details[0]?.message}`, { details });
  };
}
