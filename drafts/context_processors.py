from events.roles import ROLE_LABELS, user_roles


def roles(request):
    """Expose the signed-in user's roles to every template (the navigation bar shows them)."""
    user = getattr(request, "user", None)
    found = user_roles(user) if user is not None else []
    return {"user_roles": found, "primary_role": ROLE_LABELS.get(found[0], found[0]) if found else None}
