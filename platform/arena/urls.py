"""URL routes: the public pages and accounts (arena.web), the REST API (arena.api) and the admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path

import arena.converters  # noqa: F401  (registers <id:...>, used by every urlconf below)
from arena.bots import views as artifact_views
from arena.web.ratelimits import rate_limited

#: The admin's log-in, limited like the site's (per address, ARENA_LOGIN_RATE): it is the door to staff.
admin_login = rate_limited(group="admin-login", key="ip", rate_setting="ARENA_LOGIN_RATE", what="Logging in")(
    admin.site.login
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/login/", admin_login, name="admin-login-limited"),
    path("admin/", admin.site.urls),
    path("api/", include("arena.api.urls")),
    re_path(
        r"^artifacts/bots/(?P<prefix>[0-9a-f]{2})/(?P<sha256>[0-9a-f]{64})\.(?P<archive_format>zip|tar\.gz)$",
        artifact_views.archive,
        name="artifact",
    ),
    path("account/tokens/", include("arena.api.account_urls")),
    path("", include("arena.ops.urls")),
    path("", include("arena.web.urls")),
]
