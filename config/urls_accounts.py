"""The account pages under /accounts/: Django's sign-in and sign-out (names "login" and
"logout", guarded by django-axes), then django-allauth's sign-up, e-mail confirmation and
password reset. Django's own password-reset addresses send people to allauth's one page."""

from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from tournaments.accounts import SignInForm

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(form_class=SignInForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path(
        "password_reset/",
        RedirectView.as_view(pattern_name="account_reset_password", permanent=True),
        name="password_reset",
    ),
    path("", include("allauth.account.urls")),
]
