import type { ServiceStatusData } from '@flightdeck/schemas';
import { Card, Progress, Skeleton, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from '../Database.module.css';
import { databaseTiles } from '../tiles';

/** The status tiles of the service (from its latest figures); skeletons until the status arrives. */
export function ServiceTiles({ status }: { status: ServiceStatusData | undefined }) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-label={t('database.sections.status')} className={classes.tiles} data-testid="service-tiles">
      {status
        ? databaseTiles(status, t, i18n.language).map((tile) => (
            <Card key={tile.key} withBorder padding="sm" data-tile={tile.key}>
              <Text size="xs" tt="uppercase" fw={700} c="dimmed">
                {tile.label}
              </Text>
              <Text
                fw={700}
                fz={{ base: 'lg', sm: 'xl' }}
                lh={1.3}
                c={tile.color && tile.progress === undefined ? tile.color : undefined}
                data-testid="tile-value"
              >
                {tile.value}
              </Text>
              {tile.progress !== undefined && (
                <Progress
                  value={tile.progress}
                  color={tile.color}
                  size="sm"
                  mt={4}
                  aria-label={`${tile.label}: ${tile.detail ?? tile.value}`}
                />
              )}
              {tile.detail && (
                <Text size="xs" c="dimmed" mt={2}>
                  {tile.detail}
                </Text>
              )}
            </Card>
          ))
        : [0, 1, 2, 3, 4, 5, 6].map((i) => <Skeleton key={i} height={84} />)}
    </section>
  );
}
