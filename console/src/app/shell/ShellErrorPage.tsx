import { Box } from '@mantine/core';
import { ErrorContent, useRouteError } from './ErrorPage';

/** The not-found page inside the shell, for a signed-in user on a path no page answers. */
export function ShellNotFound() {
  return (
    <Box py="xl">
      <ErrorContent status={404} />
    </Box>
  );
}

/** A signed-in page that failed: the error page inside the shell, so the menu stays at hand. */
export function ShellRouteError({ error }: { error: unknown }) {
  const { status, detail } = useRouteError(error);
  return (
    <Box py="xl">
      <ErrorContent status={status} detail={detail} />
    </Box>
  );
}
