import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function makeAjv(coerce: boolean) {
  const ajv = new Ajv({ removeAdditional: false, useDefaults: true, allErrors: true, strict: false, coerceTypes: coerce ? 'array' : false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

// Query strings and path parameters arrive as text and are coerced; a JSON body must already have
// the right types, so `{"name": 42}` is an error rather than the string "42".
const coercing = makeAjv(true);
const exact = makeAjv(false);

export const compileValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
