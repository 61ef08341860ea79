"""Live paper-draft pages: websockets that say "the call changed", never what.

The frames (JSON text frames, like the draft engine's sockets) are typed in paper/protocol.py.

Who may connect is checked before the handshake: ws/paper/pods/<id>/ the event's staff and
the pod's players; ws/paper/follow/<token>/ anyone holding the pod's current link while the
organiser lets players follow without an account (a new link or turning it off closes it, 4403).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.utils import timezone

from drafts import permissions
from drafts.models import Pod
from draftsite.sockets import LiveSocket
from events import permissions as event_permissions
from paper import protocol, selectors
from paper.live import paper_group


class _CallSocket(LiveSocket):
    """A paper pod's page: the site's live socket (``draftsite.sockets``) hearing the pod's
    group, joined for one pod id; its clients send heartbeats only (``paper.protocol``)."""

    protocol = protocol
    role = ""
    pod_id: int | None = None

    def authorise(self) -> int | None:  # pragma: no cover - abstract
        raise NotImplementedError

    async def connect(self):
        self.pod_id = await database_sync_to_async(self.authorise)()
        if self.pod_id is None:
            await self.close()
            return
        await self.join(paper_group(self.pod_id))
        await self.accept()
        await self.send_json(protocol.hello(self.role))
        version = await database_sync_to_async(
            lambda: Pod.objects.filter(pk=self.pod_id).values_list("version", flat=True).first()
        )()
        await self.send_json(protocol.changed(self.pod_id, version or 0, timezone.now().isoformat()))

    async def paper_changed(self, event):
        await self.send_json(protocol.changed(self.pod_id, event["version"], timezone.now().isoformat()))

    async def paper_followers_revoked(self, event):
        """Only follower sockets care (their link was replaced or turned off)."""


class CallSocket(_CallSocket):
    """ws/paper/pods/<pod_id>/: the event's staff (caller pages) and the pod's players."""

    def authorise(self):
        pod = (
            Pod.objects.select_related("event")
            .filter(pk=self.scope["url_route"]["kwargs"]["pod_id"], event__draft_format="paper")
            .first()
        )
        user = self.scope.get("user")
        if pod is None:
            return None
        if event_permissions.sees_everything(user, pod.event):
            self.role = "staff"
            return pod.pk
        if permissions.seat_in_pod(user, pod.pk) is not None:
            self.role = "member"
            return pod.pk
        return None


class FollowSocket(_CallSocket):
    """ws/paper/follow/<token>/: the pod's link, while the organiser allows following."""

    role = "follower"

    def authorise(self):
        self.token = self.scope["url_route"]["kwargs"]["token"]
        pod = selectors.followed_pod(self.token)
        return pod.pk if pod else None

    def still_allowed(self) -> bool:
        pod = selectors.followed_pod(self.token)
        return pod is not None and pod.pk == self.pod_id

    async def astill_allowed(self) -> bool:  # checked at every heartbeat
        return await database_sync_to_async(self.still_allowed)()

    async def paper_followers_revoked(self, event):
        if not await self.astill_allowed():
            await self.forbid()
