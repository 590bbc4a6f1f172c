"""Error pages: in the site's style, saying what went wrong."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_an_unknown_address_gets_the_sites_404_page() -> None:
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Not found</h1>" in page
    assert "There is no page at this address." in page
    assert 'href="/static/web/site.css"' in page
    assert ">My bots</a>" in page


def test_the_navigation_links_every_part_of_the_site() -> None:
    page = Client().get("/").content.decode()
    for link in ('href="/"', 'href="/account/bots/"', 'href="/account/upload/"', 'href="/api/docs/"'):
        assert link in page
    assert "API tokens" in page
    assert ">Log in</a>" in page
    assert ">Sign up</a>" in page
