import { z } from 'zod';
import { databaseFields, Host, Port } from './poller-fields';

/** An empty text field of the form means "not given". */
const blankAsMissing = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The host gives way to a URL, and the user to an API key or no credentials at all. */
const { host: _host, user: _user, ...elasticsearchFields } = databaseFields;

/**
 * An Elasticsearch cluster (7.14 and later: the client checks the product header those send),
 * reached through one of its nodes: either `host` and `port` (https when `tls.enabled`), or a
 * `url` such as `https://search.example.com:9243/es` (its scheme decides http or https, and its
 * path is kept as a prefix for a node behind a proxy); exactly one of the two. An empty field counts as not given, so a form can clear one and fill
 * the other. `tls.ca` and `tls.reject_unauthorized` apply to both.
 *
 * Credentials are a user and password (basic authentication) or an API key (the encoded value
 * Kibana shows, base64 of `id:key`), or neither on a cluster without security. The user needs the
 * `monitor` cluster privilege and `monitor` on the indices listed.
 */
export const ElasticsearchPollerConfig = z
  .object({
    ...elasticsearchFields,
    host: z.preprocess(blankAsMissing, Host.optional()),
    port: Port.default(9200),
    url: z.preprocess(
      blankAsMissing,
      z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .refine((u) => !/^[a-z]+:\/\/[^/]*@/i.test(u), 'no user or password in the URL: use the fields')
        .optional(),
    ),
    user: z.preprocess(blankAsMissing, z.string().min(1).max(128).optional()),
    api_key: z.preprocess(blankAsMissing, z.string().min(1).max(1024).optional()),
  })
  .strict()
  .refine((c) => (c.host === undefined) !== (c.url === undefined), {
    message: 'give the host (with its port) or the URL, not both',
    path: ['host'],
  })
  .refine((c) => c.user === undefined || c.api_key === undefined, {
    message: 'give a user and password or an API key, not both',
    path: ['api_key'],
  })
  .refine((c) => c.user !== undefined || c.password === '', {
    message: 'give the user the password belongs to',
    path: ['user'],
  });
/** An Elasticsearch cluster. */
export type ElasticsearchPollerConfig = z.infer<typeof ElasticsearchPollerConfig>;
