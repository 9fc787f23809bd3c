import { Center, Drawer, Loader, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../../lib/store';
import { closeDialog, closeSidebar, dialogStore, type OpenPanel, PANELS, sidebarStore } from './hosts';

/** xs and sm screens (below Mantine's md breakpoint, 62em) get the panels full-screen. */
const SMALL_SCREEN = '(max-width: 61.99em)';

function PanelBody({ panel }: { panel: OpenPanel }) {
  const { t } = useTranslation();
  const Component = PANELS[panel.name].component;
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      }
    >
      <Component {...panel.props} />
    </Suspense>
  );
}

/** The right sidebar: hidden in TV mode, cleared on every page change. */
export function SidebarHost() {
  const { t } = useTranslation();
  const panel = useStore(sidebarStore);
  const small = useMediaQuery(SMALL_SCREEN) ?? false;
  return (
    <Drawer
      opened={panel !== null}
      onClose={closeSidebar}
      position="right"
      size={small ? '100%' : '30%'}
      title={panel ? t(PANELS[panel.name].titleKey) : ''}
      data-testid="sidebar-host"
    >
      {panel && <PanelBody panel={panel} />}
    </Drawer>
  );
}

export function DialogHost() {
  const { t } = useTranslation();
  const panel = useStore(dialogStore);
  const small = useMediaQuery(SMALL_SCREEN) ?? false;
  return (
    <Modal
      opened={panel !== null}
      onClose={closeDialog}
      size="30%"
      fullScreen={small}
      title={panel ? t(PANELS[panel.name].titleKey) : ''}
      data-testid="dialog-host"
    >
      {panel && <PanelBody panel={panel} />}
    </Modal>
  );
}
