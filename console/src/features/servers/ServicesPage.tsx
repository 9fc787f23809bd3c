import { getRouteApi } from '@tanstack/react-router';
import { HostsList } from './components/HostsList';
import { HostPage } from './HostPage';
import './servers-styles';

const hostRoute = getRouteApi('/shell/flightdeck/services/$id/{-$service}');

/** /flightdeck/services: the hosts list (spec 2, no id). */
export function HostsPage() {
  return <HostsList />;
}

/** /flightdeck/services/{id}/{service}: one host; an id that is not a row id shows the list. */
export function HostRoutePage() {
  const { id } = hostRoute.useParams();
  const serverId = Number(id);
  if (!Number.isInteger(serverId) || serverId <= 0) return <HostsList />;
  return <HostPage key={serverId} serverId={serverId} />;
}
