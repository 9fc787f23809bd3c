import {
  clampToFlashback,
  DAY_SECONDS,
  DEFAULT_TIME_RANGE_TYPE,
  flashbackLowerBound,
  normalizeCustomRange,
  parseUtcOffset,
  startOfLocalDay,
  TIME_RANGE_TYPES,
  type TimeRangeType,
} from '@flightdeck/schemas';
import { Alert, Button, Divider, Group, Popover, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../../features/auth/queries';
import { maxFlashbackQuery } from '../../features/plan/queries';
import { preferenceValue } from '../../features/preferences/api';
import { preferencesQuery } from '../../features/preferences/queries';
import { useStore } from '../../lib/store';
import { formatDateTime, fromDateTimeInput, type ShellSearch, toDateTimeInput } from '../time-range';
import { Icon } from './icons';
import { timeControlsStore } from './route-effects';

const PRESETS = TIME_RANGE_TYPES.filter((type) => type !== 'custom');

/** The user's UTC offset in minutes: the utc_offset preference, else the timezone (spec 5), else +00:00. */
export function useUserOffset(): number {
  const user = useQuery(sessionQuery).data;
  const preferences = useQuery(preferencesQuery).data;
  return parseUtcOffset(preferenceValue(preferences, 'utc_offset') ?? user?.timezone_code);
}

/**
 * The period picker (spec 4 and 9): ten presets and a custom period between two date-times, from
 * today minus the plan's max_flashback days to today. The choice lives in the URL.
 */
export function PeriodPicker({ search }: { search: ShellSearch }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const enabled = useStore(timeControlsStore).range;
  const offset = useUserOffset();
  const [opened, setOpened] = useState(false);
  const range = search.range ?? DEFAULT_TIME_RANGE_TYPE;
  const label =
    range === 'custom' && search.from !== undefined && search.to !== undefined
      ? `${formatDateTime(search.from, offset)} → ${formatDateTime(search.to, offset)}`
      : t(`shell.period.types.${range}`);

  function choose(next: { range?: TimeRangeType; from?: number; to?: number }) {
    setOpened(false);
    void navigate({
      to: '.',
      search: (prev: ShellSearch) => ({
        ...prev,
        range: next.range === DEFAULT_TIME_RANGE_TYPE ? undefined : next.range,
        from: next.from,
        to: next.to,
      }),
      replace: true,
    } as never);
  }

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" width={340} trapFocus>
      <Popover.Target>
        <Button
          variant="default"
          size="xs"
          leftSection={<Icon name="calendar" size={16} />}
          disabled={!enabled}
          onClick={() => setOpened((o) => !o)}
          aria-label={`${t('shell.period.label')}: ${label}`}
          title={enabled ? t('shell.period.label') : t('shell.period.off')}
          data-testid="period-picker"
          maw={{ base: 150, sm: 320 }}
        >
          <Text component="span" size="xs" truncate="end">
            {label}
          </Text>
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        {opened && <PeriodChoices range={range} search={search} offset={offset} onChoose={choose} />}
      </Popover.Dropdown>
    </Popover>
  );
}

function PeriodChoices({
  range,
  search,
  offset,
  onChoose,
}: {
  range: TimeRangeType;
  search: ShellSearch;
  offset: number;
  onChoose: (next: { range: TimeRangeType; from?: number; to?: number }) => void;
}) {
  const { t } = useTranslation();
  const maxFlashback = useQuery(maxFlashbackQuery);
  const now = Math.floor(Date.now() / 1000);
  const days = maxFlashback.data ?? 0;
  const lower = flashbackLowerBound(days, now, offset);
  const upper = startOfLocalDay(now, offset) + DAY_SECONDS - 60;
  const [start, setStart] = useState(toDateTimeInput(search.from ?? now - 3600, offset));
  const [end, setEnd] = useState(toDateTimeInput(search.to ?? now, offset));
  const [problem, setProblem] = useState<string | null>(null);

  function applyCustom() {
    const from = fromDateTimeInput(start, offset);
    const to = fromDateTimeInput(end, offset);
    if (Number.isNaN(from) || Number.isNaN(to)) {
      setProblem(t('shell.period.customMissing'));
      return;
    }
    const ordered = normalizeCustomRange(from, to);
    const clamped = clampToFlashback(ordered, days, now, offset);
    onChoose({ range: 'custom', from: clamped.start, to: clamped.end });
  }

  return (
    <Stack gap="sm">
      <SimpleGrid
        cols={2}
        spacing={6}
        verticalSpacing={6}
        role="group"
        aria-label={t('shell.period.presets')}
      >
        {PRESETS.map((type) => (
          <Button
            key={type}
            size="xs"
            variant={type === range ? 'light' : 'subtle'}
            aria-pressed={type === range}
            justify="flex-start"
            onClick={() => onChoose({ range: type })}
          >
            {t(`shell.period.types.${type}`)}
          </Button>
        ))}
      </SimpleGrid>
      <Divider label={t('shell.period.types.custom')} labelPosition="left" />
      <TextInput
        type="datetime-local"
        size="xs"
        label={t('shell.period.start')}
        value={start}
        min={toDateTimeInput(lower, offset)}
        max={toDateTimeInput(upper, offset)}
        onChange={(event) => setStart(event.currentTarget.value)}
      />
      <TextInput
        type="datetime-local"
        size="xs"
        label={t('shell.period.end')}
        value={end}
        min={toDateTimeInput(lower, offset)}
        max={toDateTimeInput(upper, offset)}
        onChange={(event) => setEnd(event.currentTarget.value)}
      />
      <Text size="xs" c="dimmed">
        {maxFlashback.isError
          ? t('shell.period.flashbackUnknown')
          : t('shell.period.flashback', { from: formatDateTime(lower, offset).slice(0, 10) })}
      </Text>
      {problem && (
        <Alert color="red" variant="light" p="xs" role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button size="xs" onClick={applyCustom} loading={maxFlashback.isPending}>
          {t('shell.period.apply')}
        </Button>
      </Group>
    </Stack>
  );
}
