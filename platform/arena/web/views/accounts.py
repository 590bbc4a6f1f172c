"""Accounts: sign-up, log-in (rate limited), the user's bots and the bot upload."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from arena.bots.models import Bot, BotVersion
from arena.bots.submissions import SubmissionError, submit_version
from arena.web.forms import SignupForm, UploadForm
from arena.web.ratelimits import UPLOADS, rate_limited
from arena.web.uploads import CappedUploadHandler, saved_upload, too_big_message
from workers.botpkg import MAX_ARCHIVE_BYTES

login_view = rate_limited(group="web-login", key="ip", rate_setting="ARENA_LOGIN_RATE", what="Logging in")(
    auth_views.LoginView.as_view(template_name="registration/login.html")
)


@rate_limited(group="web-signup", key="ip", rate_setting="ARENA_LOGIN_RATE", what="Signing up")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account with a user name and password, log it in and go to "My bots"."""
    if request.user.is_authenticated:
        return redirect("my-bots")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}. Upload your first bot when it is ready.")
        return redirect("my-bots")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    """List the user's bots with every version's status, and why a version failed."""
    bots = (
        Bot.objects.filter(owner=request.user)
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number")))
        .order_by("name")
    )
    return render(request, "web/my_bots.html", {"bots": bots})


@csrf_exempt  # checked below, once the size cap is in place: reading the token reads the body
@login_required
@rate_limited(**UPLOADS, what="Uploading bots")  # the same quota as the API's uploads
def upload(request: HttpRequest) -> HttpResponse:
    """Upload a new bot, or a new version of one of the user's bots, and go to its page."""
    # Before anything reads the body: Django would otherwise store any size of upload first.
    request.upload_handlers.insert(0, CappedUploadHandler(request, MAX_ARCHIVE_BYTES))
    return _upload_form(request)


@csrf_protect
def _upload_form(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        initial = {"bot_name": request.GET.get("bot", "")[:40]}
        return render(request, "web/upload.html", {"form": UploadForm(initial=initial), "bots": _names(request)})
    form = UploadForm(request.POST, request.FILES)
    too_big = getattr(request, "upload_too_big", None)
    if too_big:
        form.is_valid()  # fills cleaned_data and the other fields' errors
        form.errors.pop("archive", None)
        form.add_error("archive", too_big_message(too_big, MAX_ARCHIVE_BYTES))
    elif form.is_valid():
        name = form.cleaned_data["bot_name"]
        try:
            with saved_upload(form.cleaned_data["archive"]) as path:
                version = submit_version(request.user, name, path)
        except SubmissionError as exc:
            form.add_error("archive", str(exc))
        else:
            messages.success(
                request,
                f"Uploaded {version.bot.name} version {version.number}. It is being validated: "
                "it plays a short test series, and this page shows the result.",
            )
            return redirect("bot", bot_id=version.bot_id)
    return render(request, "web/upload.html", {"form": form, "bots": _names(request)}, status=400)


def _names(request: HttpRequest) -> list[str]:
    return list(Bot.objects.filter(owner=request.user).order_by("name").values_list("name", flat=True))
