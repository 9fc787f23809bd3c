import { SERVER_PLATFORMS, type ServerServiceSummary } from '@flightdeck/schemas';
import { Anchor, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isDatabaseService } from '../engines';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A service's display name: its own name, else its engine's. */
export function serviceLabel(t: Translate, service: ServerServiceSummary): string {
  if (service.name) return service.name;
  const code = service.service_code;
  return isDatabaseService(code)
    ? t(`database.engines.${code}`)
    : t(`deploy.agentless.service.${code}`, { defaultValue: code });
}

const HOST_SERVICES: readonly string[] = SERVER_PLATFORMS;

/**
 * The services of a server, each a link to its page. The host's own (its platform, which the host
 * page shows) and `current` are left out.
 */
export function ServiceLinks({
  serverId,
  services,
  current,
}: {
  serverId: number;
  services: readonly ServerServiceSummary[];
  current?: number;
}) {
  const { t } = useTranslation();
  const shown = services.filter((s) => s.id !== current && !HOST_SERVICES.includes(s.service_code));
  if (shown.length === 0) return null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="service-links">
      <Text size="sm" c="dimmed">
        {t(current === undefined ? 'database.servicesOfServer' : 'database.otherServices')}
      </Text>
      {shown.map((s) => (
        <Anchor
          key={s.id}
          size="sm"
          fw={600}
          data-testid="service-link"
          data-service={s.service_code}
          renderRoot={(props) => (
            <Link
              {...props}
              to="/flightdeck/services/$id/{-$service}"
              params={{ id: String(serverId), service: s.service_code }}
              search={(prev) => prev}
            />
          )}
        >
          {serviceLabel(t, s)}
        </Anchor>
      ))}
    </Group>
  );
}
