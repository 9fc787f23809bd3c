import { getRouteApi } from '@tanstack/react-router';
import { DatabaseServicePage } from '../database/DatabaseServicePage';
import { isDatabaseService } from '../database/engines';
import { HostsList } from './components/HostsList';
import { HostPage } from './HostPage';
import './servers-styles';

const hostRoute = getRouteApi('/shell/flightdeck/services/$id/{-$service}');

/** /flightdeck/services: the hosts list (spec 2, no id). */
export function HostsPage() {
  return <HostsList />;
}

/**
 * /flightdeck/services/{id}/{service}: one host, or the page of its database service when the
 * service is a database engine; an id that is not a row id shows the list.
 */
export function HostRoutePage() {
  const { id, service } = hostRoute.useParams();
  const serverId = Number(id);
  if (!Number.isInteger(serverId) || serverId <= 0) return <HostsList />;
  if (isDatabaseService(service)) {
    return <DatabaseServicePage key={`${serverId}-${service}`} serverId={serverId} service={service} />;
  }
  return <HostPage key={serverId} serverId={serverId} />;
}
