import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from '../../app/shell/AuthLayout';
import { usePageTitle } from '../../lib/page-title';

type LegalKind = 'terms' | 'privacy';

/** The terms of use and privacy notice linked from the auth layout's footer. */
function LegalPage({ kind }: { kind: LegalKind }) {
  const { t } = useTranslation();
  const title = t(`legal.${kind}`);
  usePageTitle(title);
  const paragraphs = t(`legal.${kind}Body`, { returnObjects: true }) as string[];
  return (
    <AuthLayout>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }} w="100%" maw={640}>
        <Stack gap="md">
          <Title order={1} fz="h2">
            {title}
          </Title>
          {paragraphs.map((paragraph) => (
            <Text key={paragraph}>{paragraph}</Text>
          ))}
          <Anchor component={Link} to="/signin" fw={600}>
            {t('legal.back')}
          </Anchor>
        </Stack>
      </Paper>
    </AuthLayout>
  );
}

export function TermsPage() {
  return <LegalPage kind="terms" />;
}

export function PrivacyPage() {
  return <LegalPage kind="privacy" />;
}
