import { ACKNOWLEDGE_HOURS, MAX_ACK_COMMENT_LENGTH } from '@flightdeck/schemas';
import { Alert, Button, Group, Popover, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../i18n/error-message';
import { useAcknowledge } from '../useAcknowledge';

/**
 * Acknowledge of one alert (spec 4 and 9): an optional comment, then one of 1, 2, 6, 12 or 24 hours.
 * The alert leaves the chip for that long; it stays on the master warning, dimmed.
 */
export function AcknowledgeMenu({ historicId, title }: { historicId: number; title: string }) {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [comment, setComment] = useState('');
  const acknowledge = useAcknowledge();

  const choose = (hours: (typeof ACKNOWLEDGE_HOURS)[number]) => {
    const text = comment.trim();
    acknowledge.mutate(
      { historic_id: historicId, hours, ...(text ? { comment: text } : {}) },
      {
        onSuccess: () => {
          setOpened(false);
          setComment('');
        },
      },
    );
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width={280}
      trapFocus
      withArrow
      shadow="md"
    >
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => {
            acknowledge.reset();
            setOpened((o) => !o);
          }}
          aria-label={t('alerts.ack.buttonFor', { title })}
          aria-expanded={opened}
          data-testid="ack-button"
        >
          {t('alerts.ack.button')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="ack-menu">
        <Stack gap="xs">
          <Textarea
            label={t('alerts.ack.comment')}
            placeholder={t('alerts.ack.commentPlaceholder')}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            maxLength={MAX_ACK_COMMENT_LENGTH}
            autosize
            minRows={2}
            maxRows={5}
            data-testid="ack-comment"
          />
          <Text size="sm" fw={500} id={`ack-hours-${historicId}`}>
            {t('alerts.ack.hideFor')}
          </Text>
          <Group gap={6} role="group" aria-labelledby={`ack-hours-${historicId}`}>
            {ACKNOWLEDGE_HOURS.map((hours) => (
              <Button
                key={hours}
                size="compact-sm"
                variant="default"
                loading={acknowledge.isPending && acknowledge.variables?.hours === hours}
                disabled={acknowledge.isPending}
                onClick={() => choose(hours)}
                data-testid={`ack-${hours}h`}
              >
                {t('alerts.ack.hours', { count: hours })}
              </Button>
            ))}
          </Group>
          {acknowledge.isError && (
            <Alert color="red" variant="light" role="alert" p="xs">
              <Text size="sm">{errorMessage(i18n, acknowledge.error)}</Text>
            </Alert>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
