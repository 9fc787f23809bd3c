import { Badge, Card, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One numbered step of a deploy page. */
export function DeployStep({
  step,
  title,
  children,
  testId,
}: {
  step: number;
  title: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Card withBorder padding="md" component="li" data-testid={testId} style={{ listStyle: 'none' }}>
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap" align="center">
          <Badge size="lg" circle variant="light" aria-hidden="true">
            {step}
          </Badge>
          <Title order={2} fz="h4">
            {title}
          </Title>
        </Group>
        {children}
      </Stack>
    </Card>
  );
}
