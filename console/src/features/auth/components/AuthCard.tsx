import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { AuthLayout } from '../../../app/shell/AuthLayout';
import { LogoMark } from '../../../app/shell/Logo';

/** The card of the open pages: the mark, a heading, a line under it, then the form. */
export function AuthCard({
  heading,
  subheading,
  children,
}: {
  heading: string;
  subheading?: ReactNode;
  children: ReactNode;
}) {
  return (
    <AuthLayout>
      <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={440}>
        <Stack gap={6} align="center" ta="center" mb="lg">
          <LogoMark size={44} />
          <Title order={1} fz={{ base: 22, xs: 26 }} mt="xs">
            {heading}
          </Title>
          {subheading && (
            <Text c="dimmed" size="sm">
              {subheading}
            </Text>
          )}
        </Stack>
        {children}
      </Paper>
    </AuthLayout>
  );
}
