import { metricByName, type ServerThreshold } from '@flightdeck/schemas';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Switch,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../../../lib/format';
import { metricTitle } from '../metric-names';
import { formatLabels } from '../threshold-form';

function level(value: number | null, locale: string): string {
  return value === null ? '—' : new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value);
}

/**
 * The thresholds that apply to the page's server (its own and the all-servers ones): metric, scope,
 * mode, condition and levels, "for", enabled switch, edit and remove. Below sm the levels read under
 * the metric. The metric opens the threshold's chart.
 */
export function ThresholdsTable({
  thresholds,
  selectedId,
  busyId,
  onSelect,
  onToggle,
  onEdit,
  onRemove,
}: {
  thresholds: ServerThreshold[];
  selectedId: number | null;
  /** A threshold whose enable/disable is on its way. */
  busyId: number | null;
  onSelect: (threshold: ServerThreshold) => void;
  onToggle: (threshold: ServerThreshold, enabled: boolean) => void;
  onEdit: (threshold: ServerThreshold) => void;
  onRemove: (threshold: ServerThreshold) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;

  const condition = (th: ServerThreshold) => {
    if (th.mode === 'dynamic') {
      return t('alerts.thresholds.dynamicCondition', {
        direction: t(`alerts.thresholds.directions.${th.direction ?? 'both'}`),
        sensitivity: level(th.sensitivity, locale),
      });
    }
    return t(`alerts.operators.${th.operator}`);
  };
  const summary = (th: ServerThreshold) =>
    th.mode === 'dynamic'
      ? condition(th)
      : [
          condition(th),
          `${t('alerts.thresholds.levels.yellow')} ${level(th.yellow, locale)}`,
          `${t('alerts.thresholds.levels.red')} ${level(th.red, locale)}`,
          th.recovery !== null
            ? `${t('alerts.thresholds.levels.recovery')} ${level(th.recovery, locale)}`
            : null,
          th.for_s > 0
            ? t('alerts.thresholds.forShort', { duration: formatDuration(th.for_s, locale) })
            : null,
        ]
          .filter(Boolean)
          .join(' · ');

  return (
    <Card withBorder padding={0}>
      <Table.ScrollContainer minWidth={0}>
        <Table verticalSpacing="xs" horizontalSpacing="sm" data-testid="thresholds-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('alerts.thresholds.columns.metric')}</Table.Th>
              <Table.Th visibleFrom="md">{t('alerts.thresholds.columns.mode')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('alerts.thresholds.columns.condition')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('alerts.thresholds.levels.yellow')}</Table.Th>
              <Table.Th visibleFrom="sm">{t('alerts.thresholds.levels.red')}</Table.Th>
              <Table.Th visibleFrom="md">{t('alerts.thresholds.levels.recovery')}</Table.Th>
              <Table.Th visibleFrom="md">{t('alerts.thresholds.columns.for')}</Table.Th>
              <Table.Th>{t('alerts.thresholds.columns.enabled')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('alerts.thresholds.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {thresholds.map((th) => {
              const title = metricTitle(t, th.metric);
              const labels = formatLabels(th.labels);
              const selected = th.id === selectedId;
              return (
                <Table.Tr
                  key={th.id}
                  data-testid="threshold-row"
                  data-threshold-id={th.id}
                  data-metric={th.metric}
                  data-selected={selected || undefined}
                  bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                >
                  <Table.Td style={{ minWidth: 0, maxWidth: 360 }}>
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      px={4}
                      onClick={() => onSelect(th)}
                      aria-pressed={selected}
                      aria-label={t('alerts.thresholds.showChart', { metric: title })}
                      styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
                      h="auto"
                      disabled={!metricByName(th.metric)}
                      data-testid="threshold-show-chart"
                    >
                      {title}
                    </Button>
                    <Group gap={4} px={4} wrap="wrap">
                      <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                        {th.metric}
                        {labels ? ` {${labels}}` : ''}
                      </Text>
                      <Badge size="xs" variant="light" color={th.server_id === null ? 'grape' : 'blue'}>
                        {th.server_id === null
                          ? t('alerts.thresholds.scopeAll')
                          : t('alerts.thresholds.scopeServer')}
                      </Badge>
                      {th.service && (
                        <Badge size="xs" variant="outline" color="gray" tt="none">
                          {th.service}
                        </Badge>
                      )}
                      {th.shadowed && (
                        <Tooltip label={t('alerts.thresholds.shadowedHint')} withinPortal>
                          <Badge size="xs" variant="outline" color="orange" tabIndex={0}>
                            {t('alerts.thresholds.shadowed')}
                          </Badge>
                        </Tooltip>
                      )}
                    </Group>
                    <Text size="xs" px={4} hiddenFrom="sm" style={{ overflowWrap: 'anywhere' }}>
                      {summary(th)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="md">{t(`alerts.thresholds.modes.${th.mode}`)}</Table.Td>
                  <Table.Td visibleFrom="sm">{condition(th)}</Table.Td>
                  <Table.Td visibleFrom="sm" data-testid="threshold-yellow-cell">
                    {level(th.yellow, locale)}
                  </Table.Td>
                  <Table.Td visibleFrom="sm" data-testid="threshold-red-cell">
                    {level(th.red, locale)}
                  </Table.Td>
                  <Table.Td visibleFrom="md">{level(th.recovery, locale)}</Table.Td>
                  <Table.Td visibleFrom="md" style={{ whiteSpace: 'nowrap' }}>
                    {th.for_s > 0 ? formatDuration(th.for_s, locale) : '—'}
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      checked={th.enabled}
                      disabled={busyId === th.id}
                      onChange={(event) => onToggle(th, event.currentTarget.checked)}
                      aria-label={t(
                        th.enabled ? 'alerts.thresholds.disableFor' : 'alerts.thresholds.enableFor',
                        {
                          metric: title,
                        },
                      )}
                      data-testid="threshold-enabled-switch"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={2} wrap="nowrap" justify="flex-end">
                      <Tooltip
                        label={
                          th.mode === 'dynamic'
                            ? t('alerts.thresholds.dynamicNoEdit')
                            : t('alerts.thresholds.edit')
                        }
                        withinPortal
                      >
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('alerts.thresholds.editFor', { metric: title })}
                          disabled={th.mode === 'dynamic'}
                          onClick={() => onEdit(th)}
                          data-testid="threshold-edit"
                        >
                          <EditGlyph />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('alerts.thresholds.remove')} withinPortal>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('alerts.thresholds.removeFor', { metric: title })}
                          onClick={() => onRemove(th)}
                          data-testid="threshold-remove"
                        >
                          <RemoveGlyph />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function EditGlyph() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden
    >
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
    </svg>
  );
}

function RemoveGlyph() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      aria-hidden
    >
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </svg>
  );
}
