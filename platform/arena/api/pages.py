"""The token page at /account/tokens/: list your tokens, create one (its key shown once), revoke one.

Plain Django views behind login, CSRF-protected POSTs, templates extending the
site's base.html (arena.web). Routed by arena.api.account_urls.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from arena.api.models import ApiToken
from arena.api.tokens import MAX_NAME_LENGTH, TokenNameError, issue_token, revoke_token


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=MAX_NAME_LENGTH,
        help_text="What you use it for, e.g. 'laptop' or 'CI', to tell it apart later.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request: HttpRequest) -> HttpResponse:
    """Show the user's tokens; on POST create one and show its key, this once."""
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        try:
            token, new_key = issue_token(request.user, form.cleaned_data["name"])
        except TokenNameError as exc:
            form.add_error("name", str(exc))
        else:
            form = TokenForm()
            messages.success(request, f"Token {token.name!r} created. Copy its key now: it is not shown again.")
    tokens = ApiToken.objects.filter(user=request.user).order_by("-created", "-id")
    response = render(request, "api/tokens.html", {"form": form, "tokens": tokens, "new_key": new_key})
    if new_key is not None:
        response["Cache-Control"] = "no-store"  # the key must not stay in a cache
    return response


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke one of the user's tokens (another user's gives 404) and go back to the list."""
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    revoke_token(token)
    messages.success(request, f"Token {token.name!r} ({token.prefix}…) is revoked: requests with it are refused.")
    return redirect("api-tokens")
