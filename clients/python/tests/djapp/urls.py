"""Two admin sites over the same models: /admin/ with Django's ModelAdmin
and search_fields = ["id__startswith", "title"], /admin2/ with
pgxid.django.XidSearchMixin and search_fields written as for any field."""

from django.contrib import admin
from django.urls import path

from pgxid.django import XidSearchMixin

from .models import Memo, Note

site = admin.AdminSite(name="admin")
site2 = admin.AdminSite(name="admin2")


class NoteAdmin(admin.ModelAdmin):
    search_fields = ["id__startswith", "title"]


class NoteAdmin2(XidSearchMixin, admin.ModelAdmin):
    search_fields = ["id", "title"]


class MemoAdmin2(XidSearchMixin, admin.ModelAdmin):
    search_fields = ["=id", "note", "body"]


site.register(Note, NoteAdmin)
site.register(Memo)
site2.register(Note, NoteAdmin2)
site2.register(Memo, MemoAdmin2)

urlpatterns = [path("admin/", site.urls), path("admin2/", site2.urls)]
