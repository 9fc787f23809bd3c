import { z } from 'zod';
import { ERROR_CODES } from './errors';

/** Successful API answer: `{status:"ok", data, message?}`. */
export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('ok'), data, message: z.string().optional() });
}

/** Failed API answer. `path` is the zod issue path of a validation error; `request_id` ties it to a log line. */
export const ErrorEnvelope = z.object({
  status: z.literal('error'),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  path: z.array(z.union([z.string(), z.number()])).optional(),
  request_id: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Either envelope, for clients that read any answer. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.discriminatedUnion('status', [okEnvelope(data), ErrorEnvelope]);
}
export type OkEnvelope<T> = { status: 'ok'; data: T; message?: string };
