"""Django admin: the infraction catalogue (editable), penalties (read-only, changed only by the
head judge's decisions), the review queue, and the audit trail (nobody may change or delete it)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext

from draftsite.admin import ReadOnlyAdminMixin
from draftsite.errors import DomainError
from draftsite.pages import show_on_form
from penalties import permissions, selectors, services
from penalties.forms import DecisionForm
from penalties.models import Appeal, AppealStatus, Infraction, Penalty, PenaltyAudit, PenaltyStatus, ReviewQueueItem


@admin.register(Infraction)
class InfractionAdmin(admin.ModelAdmin):
    list_display = [
        "section",
        "name",
        "code",
        "category",
        "default_regular",
        "default_competitive",
        "default_professional",
        "upgrade_at",
        "active",
    ]
    list_filter = ["category", "active"]
    search_fields = ["code", "name", "section"]
    ordering = ["section", "code"]


class AuditInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = PenaltyAudit
    extra = 0
    can_delete = False
    fields = ["at", "actor", "action", "from_penalty", "to_penalty", "from_status", "to_status", "reason"]
    readonly_fields = fields


class _PenaltyAdminBase(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Penalties are issued on the site, where the IPG defaults apply, and change only through
    the review decision, which writes the audit trail."""

    list_display = [
        "id",
        "event",
        "registration",
        "infraction",
        "penalty",
        "status",
        "issued_by",
        "issued_at",
        "review_link",
    ]
    list_filter = ["status", "penalty", "infraction__category"]
    search_fields = ["registration__name", "description", "event__name"]
    list_select_related = ["event", "registration", "infraction", "issued_by"]
    inlines = [AuditInline]
    readonly_fields = [f.name for f in Penalty._meta.fields]

    @admin.display(description="Review")
    def review_link(self, obj):
        if obj.status == PenaltyStatus.WITHDRAWN:
            return "—"
        return format_html('<a href="{}">Review</a>', reverse("admin:penalties_penalty_review", args=[obj.pk]))

    def get_urls(self):
        if self.model is not Penalty:
            return super().get_urls()
        extra = [
            path("<int:pk>/review/", self.admin_site.admin_view(self.review_view), name="penalties_penalty_review"),
        ]
        return extra + super().get_urls()

    def review_view(self, request, pk: int):
        """The head judge's decision (uphold/upgrade/downgrade/withdraw, reason required),
        or the decision on a pending appeal; the same services and checks as the site."""
        penalty = get_object_or_404(selectors.penalty_queryset(), pk=pk)
        if not permissions.is_head_judge(request.user, penalty.event_id):
            raise PermissionDenied
        appeal = Appeal.objects.filter(penalty=penalty, status=AppealStatus.PENDING).first()
        form = DecisionForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                services.decide(
                    penalty_id=penalty.pk,
                    actor=request.user,
                    decision=data["decision"],
                    reason=data["reason"],
                    penalty=form.new_kind(),
                    appeal=appeal is not None and form.decides_appeal(),
                )
            except DomainError as exc:
                show_on_form(form, exc)
            else:
                self.message_user(request, "Decision recorded.", messages.SUCCESS)
                return redirect("admin:penalties_penalty_change", penalty.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": gettext("Review penalty #%(pk)s") % {"pk": penalty.pk},
            "p": penalty,
            "form": form,
            "appeal": appeal,
            "history": list(penalty.history.select_related("actor")),
        }
        return TemplateResponse(
            request, "penalties/admin_review.html", context, status=400 if request.method == "POST" else 200
        )


@admin.register(Penalty)
class PenaltyAdmin(_PenaltyAdminBase):
    pass


@admin.register(ReviewQueueItem)
class ReviewQueueAdmin(_PenaltyAdminBase):
    """The head judge's queue: penalties awaiting review in the events they head-judge."""

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(status=PenaltyStatus.PENDING_REVIEW, event__in=selectors.events_head_judged(request.user))
        )

    @admin.display(description="Review")
    def review_link(self, obj):
        return format_html('<a href="{}">Review</a>', reverse("admin:penalties_penalty_review", args=[obj.pk]))


@admin.register(Appeal)
class AppealAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["penalty", "status", "decision", "submitted_at", "decided_by", "decided_at"]
    list_filter = ["status"]
    readonly_fields = [f.name for f in Appeal._meta.fields]


@admin.register(PenaltyAudit)
class PenaltyAuditAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Append-only: visible, never editable or deletable, not even by superusers."""

    list_display = ["at", "penalty", "actor", "action", "from_penalty", "to_penalty", "from_status", "to_status"]
    list_filter = ["action"]
    readonly_fields = [f.name for f in PenaltyAudit._meta.fields]

    def get_actions(self, request):
        return {}
