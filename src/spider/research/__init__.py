"""Adapters for researchers: Gymnasium (the ``gym`` extra) and OpenSpiel (the ``openspiel`` extra).

:mod:`~spider.research.observe` lays out the visible position as fixed-size integers, the one
layout both adapters share; :mod:`~spider.research.gym` and :mod:`~spider.research.openspiel` import
their library only when imported themselves. The dependency-free environment is :mod:`spider.env`.
"""
